using System;
using System.Diagnostics;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Lifecycle;

/// <summary>
/// The calls that wait for a connection to end (a client's Disconnect, a server's Stop) return with it ended even when
/// no thread-pool thread is free: code that blocks pool threads must not be able to hold up the teardown it waits for.
/// The test methods are synchronous on purpose: an await would resume on the pool this test blocks.
/// </summary>
[TestFixtureSource(typeof(LifecycleTests), nameof(LifecycleTests.Transports))]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class BusyThreadPoolTests
{
    private static readonly TimeSpan s_sessionDisconnectTimeout = TimeSpan.FromMilliseconds(200);

    private static readonly TimeSpan s_clientDisconnectTimeout = TimeSpan.FromSeconds(30);

    private readonly TestTransport _transport;

    public BusyThreadPoolTests(TestTransport transport) => _transport = transport;

    /// <summary>A server whose one session is connected and idle (its receive pending), and the client of that session.</summary>
    private (TestServer Server, TestClient Client, TestSession Session) ConnectIdle()
    {
        var server = new TestServer(_transport, IPAddress.Loopback) { Echo = false };
        server.OnSessionHook = (session, hook) =>
        {
            if (hook == "OnConnecting")
                session.Session.OptionDisconnectTimeout = s_sessionDisconnectTimeout;
        };
        Assert.That(server.Start(), Is.True, "server starts");
        var client = new TestClient(_transport, server);
        Assert.That(Wait.For(client.ConnectAndWaitAsync(), "client connected").GetAwaiter().GetResult(), Is.True, "client connects");
        Wait.For(server.FirstConnected, "session connected").GetAwaiter().GetResult();
        return (server, client, server.LastSession!);
    }

    [Test]
    public void StopEndsEverySessionWhileNoPoolThreadIsFree()
    {
        var (server, client, session) = ConnectIdle();
        using var _ = server;
        using var __ = client;

        using (new BlockedThreadPool())
        {
            // The graceful part cannot finish (the client's end of stream would arrive through the pool); after the
            // session's disconnect timeout Stop closes the socket itself and must not wait for the pool to see it.
            Assert.That(server.Stop(), Is.True, "Stop");
            Assert.That(session.Closed.IsCompleted, Is.True, $"the session's OnDisconnected ran before Stop returned; its hooks: [{string.Join(", ", session.Log.Snapshot())}]");
            Assert.That(server.ConnectedSessions, Is.EqualTo(0), "no session is registered after Stop");
        }

        Wait.For(client.Closed, "client OnDisconnected once the pool runs again").GetAwaiter().GetResult();
        LifecycleTests.AssertLifecycle(session.Log.Snapshot(), "session");
    }

    [Test]
    public void StopEndsASessionWhoseMulticastWaitsForAPoolThread()
    {
        var (server, client, session) = ConnectIdle();
        using var _ = server;
        using var __ = client;

        using (new BlockedThreadPool())
        {
            // Multicast hands each session's send to the pool, which cannot start it: the session has a sender that
            // never ran when Stop closes it.
            Assert.That(server.Multicast("m"), Is.True, "Multicast");
            Assert.That(server.Stop(), Is.True, "Stop");
            Assert.That(session.Closed.IsCompleted, Is.True, $"the session's OnDisconnected ran before Stop returned; its hooks: [{string.Join(", ", session.Log.Snapshot())}]");
            Assert.That(server.ConnectedSessions, Is.EqualTo(0), "no session is registered after Stop");
        }

        Wait.For(client.Closed, "client OnDisconnected once the pool runs again").GetAwaiter().GetResult();
        LifecycleTests.AssertLifecycle(session.Log.Snapshot(), "session");
    }

    [Test]
    public void ClientDisconnectEndsTheConnectionWhileNoPoolThreadIsFree()
    {
        var (server, client, session) = ConnectIdle();
        using var _ = server;
        using var __ = client;
        // Long enough that a Disconnect waiting for the server's end of stream (which needs the server's read, on the
        // pool) is told apart from one that does not, and that the engine's timer cannot be what ends it.
        client.Client.OptionDisconnectTimeout = s_clientDisconnectTimeout;

        using (new BlockedThreadPool())
        {
            var watch = Stopwatch.StartNew();
            Assert.That(client.Disconnect(), Is.True, "client Disconnect");
            Assert.That(watch.Elapsed, Is.LessThan(s_clientDisconnectTimeout / 3), $"client Disconnect returned without waiting for the server's end of stream (its disconnect timeout is {s_clientDisconnectTimeout.TotalSeconds} s)");
            Assert.That(client.Closed.IsCompleted, Is.True, $"the client's OnDisconnected ran before Disconnect returned; its hooks: [{string.Join(", ", client.Log.Snapshot())}]");
            Assert.That(client.IsConnected, Is.False, "client disconnected");
        }

        Wait.For(session.Closed, "session OnDisconnected once the pool runs again").GetAwaiter().GetResult();
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed), "the server saw the client's end of stream");
        LifecycleTests.AssertLifecycle(client.Log.Snapshot(), "client");
        LifecycleTests.AssertLifecycle(session.Log.Snapshot(), "session");
    }
}
