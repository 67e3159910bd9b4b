using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>The redis-server the other fixtures start: its port and what a lost race for it looks like.</summary>
[TestFixture]
public sealed class RedisServerProcessTests
{
    [Test]
    public void FreePortsLieBelowTheKernelsEphemeralRange()
    {
        var low = LoopbackPorts.EphemeralLow();
        Assume.That(low, Is.GreaterThan(20_100), "a range that leaves room below it");

        for (var i = 0; i < 20; i++)
            Assert.That(RedisServerProcess.FreePort(), Is.InRange(20_000, low - 1));
    }

    [Test]
    public void APortTakenBeforeRedisBindsItIsReportedAsTaken()
    {
        // What StartNewAsync retries on: the failure names the bind error.
        using var holder = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        holder.Bind(new IPEndPoint(IPAddress.Loopback, RedisServerProcess.FreePort()));
        holder.Listen();
        using var redis = RedisServerProcess.OnPort(((IPEndPoint)holder.LocalEndPoint!).Port);

        var error = Assert.ThrowsAsync<InvalidOperationException>(() => redis.StartAsync());

        Assert.That(error!.Message, Does.Contain("Address already in use"));
    }

    [Test]
    public async Task StartNewAsyncGivesARedisThatAnswers()
    {
        using var redis = await RedisServerProcess.StartNewAsync();
        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await client.ConnectAsync(IPAddress.Loopback, redis.Port);
        await client.SendAsync("PING\r\n"u8.ToArray());
        var answer = new byte[7];
        var read = 0;
        while (read < answer.Length && await Wait.For(client.ReceiveAsync(answer.AsMemory(read)).AsTask(), "redis's answer") is var n and > 0)
            read += n;

        Assert.That(Encoding.ASCII.GetString(answer, 0, read), Is.EqualTo("+PONG\r\n"));
    }
}
