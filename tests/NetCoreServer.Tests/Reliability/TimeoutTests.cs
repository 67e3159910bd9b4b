using System;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading.Tasks;
using Microsoft.Extensions.Time.Testing;
using NetCoreServer.Engine;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Reliability;

/// <summary>Idle timeout, connect timeout and TCP keep-alive, over every stream transport they apply to.</summary>
[TestFixtureSource(typeof(ReliabilityTransports), nameof(ReliabilityTransports.All))]
public sealed class TimeoutTests
{
    private readonly TestTransport _transport;

    public TimeoutTests(TestTransport transport) => _transport = transport;

    private TestServer StartServer(Action<TestServer>? configure = null)
    {
        var server = new TestServer(_transport, IPAddress.Loopback);
        configure?.Invoke(server);
        Assert.That(server.Start(), Is.True, "server starts");
        return server;
    }

    [Test]
    public async Task ASessionThatReceivesNothingForTheIdleTimeoutIsClosedWithReasonTimeout()
    {
        var clock = new FakeTimeProvider();
        var timeout = TimeSpan.FromSeconds(5);
        using var server = StartServer(s =>
        {
            s.Options.OptionTimeProvider = clock;
            s.Options.OptionIdleTimeout = timeout;
        });
        using var client = new TestClient(_transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "client connect"), Is.True);
        await Wait.For(server.FirstConnected, "session connected");
        var session = server.LastSession!;

        // A message every 200 ms of the server's clock keeps the session open for well past the timeout.
        for (var i = 1; i <= 35; i++)
        {
            clock.Advance(TimeSpan.FromMilliseconds(200));
            client.SendAsync("k");
            await Wait.For(client.Received.Reaches(i), $"echo {i}");
        }
        Assert.That(session.IsConnected, Is.True, "7 s of activity every 200 ms: not idle");

        clock.Advance(timeout + IdleSweep.Period);
        await Wait.For(session.Closed, "the idle session closed");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.Timeout));
        await Wait.For(client.Closed, "the client sees the server close");
        Assert.That(client.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed), "the idle close ends the stream, no reset");
    }

    [Test]
    public async Task AnIdleSessionIsStillClosedAfterEveryEarlierIdleSessionHasGone()
    {
        // The real-clock idle test (one per kind of timeout; the others run on a fake clock). The server's idle sweep
        // stops once no connection is watched; the next connection must start it again.
        var timeout = TimeSpan.FromSeconds(1);
        using var server = StartServer(s => s.Options.OptionIdleTimeout = timeout);
        for (var round = 1; round <= 2; round++)
        {
            using var client = new TestClient(_transport, server);
            var started = DateTime.UtcNow;
            Assert.That(await Wait.For(client.ConnectAndWaitAsync(), $"client connect {round}"), Is.True);
            await Wait.For(client.Closed, $"the idle session {round} closed");
            Assert.That(DateTime.UtcNow - started, Is.GreaterThanOrEqualTo(timeout - TimeSpan.FromMilliseconds(50)), $"round {round}: not before 1 s of silence");
            Assert.That(client.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed), $"round {round}: closed by the server");
            var session = server.LastSession!;
            await Wait.For(session.Closed, $"session {round} closed");
            Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.Timeout), $"round {round}: for idleness");
            // Longer than two sweeps: the sweep has found nothing to watch and stopped.
            await Task.Delay(IdleSweep.Period * 3);
        }
    }

    [Test]
    public async Task TheIdleTimeoutIsOffByDefault()
    {
        var clock = new FakeTimeProvider();
        using var server = StartServer(s => s.Options.OptionTimeProvider = clock);
        using var client = new TestClient(_transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "client connect"), Is.True);
        await Wait.For(server.FirstConnected, "session connected");
        Assert.That(server.LastSession!.Session.OptionIdleTimeout, Is.EqualTo(TimeSpan.Zero));
        clock.Advance(TimeSpan.FromDays(1));
        client.SendAsync("k");
        await Wait.For(client.Received.Reaches(1), "an echo after a day of silence");
        Assert.That(server.LastSession.IsConnected, Is.True);
    }

    [Test]
    public async Task AConnectToAPeerThatNeverAnswersFailsWithTimedOutAfterTheConnectTimeout([Values] bool blocking)
    {
        if (_transport.IsUnix)
            Assert.Ignore("a Unix socket connect never waits on a silent peer: a full backlog fails at once");
        // A listener that never accepts, its accept queue filled: Linux drops further SYNs, so a connect waits.
        using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(0);
        var fillers = new System.Collections.Generic.List<Socket>();
        try
        {
            for (var i = 0; i < 4; i++)
            {
                var filler = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                fillers.Add(filler);
                _ = filler.ConnectAsync(listener.LocalEndPoint!);
            }
            await Task.Delay(200);
            using var target = new TestServer(_transport, IPAddress.Loopback);
            using var client = new TestClient(_transport, target, listener.LocalEndPoint!);
            client.Client.OptionConnectTimeout = TimeSpan.FromMilliseconds(500);
            var started = DateTime.UtcNow;
            var connected = blocking
                ? await Task.Run(client.Connect)
                : await Wait.For(client.ConnectAndWaitAsync(), "the connect outcome");
            var took = DateTime.UtcNow - started;
            Assert.That(connected, Is.False, "no connection to a peer that never answers");
            Assert.That(took, Is.LessThan(TimeSpan.FromSeconds(5)), "given up after the timeout, not the system's minutes");
            Assert.That(client.Log.Snapshot(), Has.Member("OnError " + SocketError.TimedOut), "OnError says it timed out");
            await Wait.For(client.Closed, "OnDisconnected after the timed-out connect");
        }
        finally
        {
            foreach (var filler in fillers)
                filler.Dispose();
        }
    }

    [Test]
    public async Task KeepAliveOptionsReachTheKernelOnBothSides()
    {
        if (_transport.IsUnix)
            Assert.Ignore("TCP keep-alive does not apply to Unix sockets");
        using var server = StartServer(s =>
        {
            s.Options.OptionKeepAlive = true;
            s.Options.OptionTcpKeepAliveTime = 7;
            s.Options.OptionTcpKeepAliveInterval = 3;
            s.Options.OptionTcpKeepAliveRetryCount = 4;
        });
        using var client = new TestClient(_transport, server);
        var tcp = (IpStreamClient)client.Client;
        tcp.OptionKeepAlive = true;
        tcp.OptionTcpKeepAliveTime = 11;
        tcp.OptionTcpKeepAliveInterval = 5;
        tcp.OptionTcpKeepAliveRetryCount = 6;
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "client connect"), Is.True);
        await Wait.For(server.FirstConnected, "session connected");

        Assert.That(KernelKeepAlive(server.LastSession!.Session.Socket!), Is.EqualTo((1, 7, 3, 4)), "server session: SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT");
        Assert.That(KernelKeepAlive(tcp.Socket!), Is.EqualTo((1, 11, 5, 6)), "client: SO_KEEPALIVE, TCP_KEEPIDLE, TCP_KEEPINTVL, TCP_KEEPCNT");
    }

    /// <summary>Reads the keep-alive settings with getsockopt(2) itself, so the test sees what the kernel holds.</summary>
    private static (int KeepAlive, int Idle, int Interval, int Count) KernelKeepAlive(Socket socket)
    {
        const int SolSocket = 1, SoKeepAlive = 9, SolTcp = 6, TcpKeepIdle = 4, TcpKeepIntvl = 5, TcpKeepCnt = 6;
        var fd = (int)socket.SafeHandle.DangerousGetHandle();
        return (Get(fd, SolSocket, SoKeepAlive), Get(fd, SolTcp, TcpKeepIdle), Get(fd, SolTcp, TcpKeepIntvl), Get(fd, SolTcp, TcpKeepCnt));

        static int Get(int fd, int level, int name)
        {
            var value = 0;
            var length = sizeof(int);
            Assert.That(GetSockOpt(fd, level, name, ref value, ref length), Is.EqualTo(0), $"getsockopt({level}, {name})");
            return value;
        }
    }

    [DllImport("libc", EntryPoint = "getsockopt", SetLastError = true)]
    private static extern int GetSockOpt(int fd, int level, int name, ref int value, ref int length);
}
