using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Transports;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>
/// The event loops' watchdog and its settings. Alone (the watchdog and the settings are process-wide): while other
/// fixtures' loops run, the watchdog is rightly awake.
/// </summary>
[TestFixture]
[NonParallelizable]
public sealed class EventLoopWatchdogTests
{
    [SetUp]
    public void LinuxOnly()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
    }

    private sealed class EchoServer(IPAddress address) : TcpServer(address, 0)
    {
        protected override TcpSession CreateSession() => new EchoSession(this);
    }

    private sealed class EchoSession(TcpServer server) : TcpSession(server)
    {
        protected override void OnReceived(byte[] buffer, long offset, long size) => SendAsync(buffer, offset, size);
    }

    [Test]
    public async Task TheWatchdogSleepsOnceNoLoopRunsAnything()
    {
        using var server = new EchoServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
        for (var i = 0; i < 3; i++)
        {
            await socket.SendAsync("ping"u8.ToArray(), SocketFlags.None);
            var answer = new byte[4];
            var read = 0;
            while (read < answer.Length)
                read += await Wait.For(socket.ReceiveAsync(answer.AsMemory(read), SocketFlags.None).AsTask(), "the echo");
        }
        // Connected and idle: the loop waits in epoll_wait, and the watchdog, with nothing to watch, sleeps.
        await Wait.Until(() => LoopWatchdog.IsAsleep, "the watchdog asleep while no loop runs anything", TimeSpan.FromSeconds(10));
        Assert.That(server.ConnectedSessions, Is.EqualTo(1), "asleep with a connection open");
    }

    [Test]
    public void TheHandoffThresholdIsPositiveOrInfinite()
    {
        Assert.That(EventLoops.HandoffThreshold, Is.EqualTo(TimeSpan.FromMilliseconds(1)), "the default");
        Assert.Throws<ArgumentOutOfRangeException>(() => EventLoops.HandoffThreshold = TimeSpan.Zero);
        Assert.Throws<ArgumentOutOfRangeException>(() => EventLoops.HandoffThreshold = TimeSpan.FromMilliseconds(-5));
        try
        {
            EventLoops.HandoffThreshold = Timeout.InfiniteTimeSpan;
            Assert.That(EventLoops.HandoffThreshold, Is.EqualTo(Timeout.InfiniteTimeSpan));
        }
        finally
        {
            EventLoops.HandoffThreshold = TimeSpan.FromMilliseconds(1);
        }
    }

    [Test]
    public void TheThreadCapIsAtLeastOne()
    {
        Assert.That(EventLoops.MaxThreads, Is.EqualTo(256), "the default");
        Assert.Throws<ArgumentOutOfRangeException>(() => EventLoops.MaxThreads = 0);
    }
}
