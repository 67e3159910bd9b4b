using System;
using System.Diagnostics;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// Bursts that complete receives synchronously one after another: NetCoreServer's UDP recursed there and overflowed
/// the stack. UDP may drop under such a burst, so only sends are counted exactly; the receive side must survive and
/// keep going.
/// </summary>
[TestFixture]
public sealed class UdpBurstTests
{
    private const int Burst = 100_000;

    [TestCase(true)]
    [TestCase(false)]
    public async Task ABurstOf100000DatagramsIsHandledAndReceivingKeepsGoing(bool continuous)
    {
        // One-shot mode re-arms from OnReceived (no echo), continuous mode needs nothing.
        using var server = new TestUdpServer(IPAddress.Loopback, continuous, echo: false)
        {
            Record = false,
            OptionReceiveBufferSize = 4 * 1024 * 1024,
        };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();

        var payload = new byte[64];
        var watch = Stopwatch.StartNew();
        long given = 0;
        for (var i = 0; i < Burst; i++)
        {
            // Pace lightly so that most of the burst arrives: every 500 datagrams let the receiver come within 1,000
            // of the sender. A wait that times out means datagrams were dropped; they are written off, not awaited again.
            if (i % 500 == 0 && i > 0)
            {
                var target = i - 1000 - given;
                if (!await Wait.Within(server.Received.Reaches(target), TimeSpan.FromMilliseconds(250)))
                    given += Math.Max(0, target - server.Received.Value);
            }
            BitConverter.TryWriteBytes(payload, i);
            while (!client.SendAsync(payload))
            {
                Assert.That(watch.Elapsed, Is.LessThan(TimeSpan.FromSeconds(60)), "the send queue never drains");
                await Task.Delay(1);
            }
        }
        await Wait.For(client.Sent.Reaches(Burst), $"all {Burst} datagrams handed to the socket", TimeSpan.FromSeconds(60));
        Assert.That(client.DatagramsSent, Is.EqualTo(Burst));

        // The receive loop survived the burst if a datagram sent afterwards still arrives.
        var before = server.Received.Value;
        await Wait.Within(server.Received.Reaches(Burst), TimeSpan.FromSeconds(5));
        var arrived = server.Received.Value;
        client.Send("after the burst");
        await Wait.For(server.Received.Reaches(arrived + 1), "a datagram after the burst");
        TestContext.Out.WriteLine($"{(continuous ? "continuous" : "one-shot")}: {arrived} of {Burst} arrived ({before} when sending ended) in {watch.Elapsed.TotalSeconds:F1} s");
        // Only a loose bound: UDP may drop, the more so with a small net.core.rmem_max (SO_RCVBUF is capped by it).
        Assert.That(arrived, Is.GreaterThan(Burst / 10), "a paced burst mostly arrives over loopback");
        Assert.That(server.Errors, Is.Empty);
    }

    [Test]
    public async Task AQueuedBacklogIsDrainedByIteratingNotRecursing()
    {
        var minDepth = int.MaxValue;
        var maxDepth = 0;
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: false, echo: false)
        {
            Rearm = false,
            Record = false,
            OptionReceiveBufferSize = 4 * 1024 * 1024,
        };
        server.ReceivedHandler = (_, _, _, _) =>
        {
            var depth = new StackTrace(false).FrameCount;
            minDepth = Math.Min(minDepth, depth);
            maxDepth = Math.Max(maxDepth, depth);
        };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();

        // Nobody is receiving yet: the datagrams wait in the kernel, so every receive below completes synchronously.
        const int backlog = 3000;
        for (var i = 0; i < backlog; i++)
            client.Send(new byte[64]);
        server.OptionContinuousReceive = true;
        server.ReceiveAsync();
        await Wait.Within(server.Received.Reaches(backlog), TimeSpan.FromSeconds(5));

        TestContext.Out.WriteLine($"{server.Received.Value} of {backlog} queued datagrams delivered; stack depth {minDepth}..{maxDepth}");
        Assert.That(server.Received.Value, Is.GreaterThan(100), "a backlog was queued and drained (the kernel may drop past SO_RCVBUF)");
        // Two threads may deliver (the caller of ReceiveAsync, then an I/O thread), each at its own fixed depth;
        // recursion would add frames per datagram, thousands here.
        Assert.That(maxDepth - minDepth, Is.LessThan(200), "stack depth does not grow with the backlog");
    }
}
