using System;
using System.Linq;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Lifecycle;

/// <summary>
/// The lifecycle guarantees under interleavings that used to break them, over every stream transport: a hook that
/// blocks widens the window, the test acts from another thread, then checks the order of the hooks.
/// </summary>
[TestFixtureSource(nameof(Transports))]
public sealed class LifecycleTests
{
    private readonly TestTransport _transport;

    public LifecycleTests(TestTransport transport) => _transport = transport;

    public static readonly object[] Transports = { TestTransport.Tcp, TestTransport.Ssl, TestTransport.Uds, TestTransport.TcpPool, TestTransport.SslPool, TestTransport.UdsPool };

    private TestServer StartServer(Action<TestServer>? configure = null)
    {
        var server = new TestServer(_transport, IPAddress.Loopback);
        configure?.Invoke(server);
        Assert.That(server.Start(), Is.True, "server starts");
        return server;
    }

    /// <summary>OnConnected once, before OnDisconnecting and OnDisconnected (each once), and nothing after OnDisconnected.</summary>
    internal static void AssertLifecycle(string[] log, string who)
    {
        Assert.That(log.Count(e => e == "OnConnected"), Is.EqualTo(1), $"{who}: OnConnected exactly once in [{string.Join(", ", log)}]");
        Assert.That(log.Count(e => e == "OnDisconnecting"), Is.EqualTo(1), $"{who}: OnDisconnecting exactly once in [{string.Join(", ", log)}]");
        Assert.That(log.Count(e => e == "OnDisconnected"), Is.EqualTo(1), $"{who}: OnDisconnected exactly once in [{string.Join(", ", log)}]");
        Assert.That(Array.IndexOf(log, "OnConnected"), Is.LessThan(Array.IndexOf(log, "OnDisconnecting")), $"{who}: OnConnected before OnDisconnecting in [{string.Join(", ", log)}]");
        Assert.That(log[^1], Is.EqualTo("OnDisconnected"), $"{who}: nothing after OnDisconnected in [{string.Join(", ", log)}]");
    }

    [Test]
    public async Task DisconnectAllWhileOnConnectedRunsTakesEffectAfterItReturns()
    {
        using var gate = new HookGate("OnConnected");
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.OnSessionHook = gate.Run;
        });
        using var client = new TestClient(_transport, server);
        client.Client.ConnectAsync();

        await Wait.For(gate.Entered, "session OnConnected entered");
        Assert.That(server.DisconnectAll(), Is.True);
        gate.Release();

        var session = server.LastSession!;
        await Wait.For(session.Closed, "session OnDisconnected");
        var log = session.Log.Snapshot();
        Assert.That(Array.IndexOf(log, "OnDisconnecting"), Is.GreaterThan(Array.IndexOf(log, "OnConnected-end")), $"OnDisconnecting after OnConnected returned: [{string.Join(", ", log)}]");
        AssertLifecycle(log, "session");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.Local));
        await Wait.For(client.Closed, "client OnDisconnected");
    }

    [Test]
    public async Task StopWhileOnConnectedRunsWaitsForThatSession()
    {
        using var gate = new HookGate("OnConnected");
        var stopping = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.OnSessionHook = gate.Run;
            s.OnServerHook = hook =>
            {
                if (hook == "OnStopping")
                    stopping.TrySetResult();
            };
        });
        using var client = new TestClient(_transport, server);
        client.Client.ConnectAsync();

        await Wait.For(gate.Entered, "session OnConnected entered");
        var stop = Task.Run(server.Stop);
        await Wait.For(stopping.Task, "server OnStopping");
        gate.Release();
        Assert.That(await Wait.For(stop, "Stop returned"), Is.True);

        Assert.That(server.ConnectedSessions, Is.EqualTo(0), "no session left after Stop");
        var log = server.Log.Snapshot();
        Assert.That(Array.IndexOf(log, "session.OnDisconnected"), Is.GreaterThanOrEqualTo(0).And.LessThan(Array.IndexOf(log, "server.OnStopped")), $"the session closed before OnStopped: [{string.Join(", ", log)}]");
        AssertLifecycle(server.LastSession!.Log.Snapshot(), "session");
    }

    [Test]
    public async Task AConnectionAcceptedWhileStopRunsIsClosedWithoutHooks()
    {
        var creating = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var release = new ManualResetEventSlim();
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.OnCreateSession = () =>
            {
                creating.TrySetResult();
                release.Wait(Wait.Default);
            };
        });
        using var client = new TestClient(_transport, server);
        client.Client.ConnectAsync();

        await Wait.For(creating.Task, "the server accepted and is creating the session");
        Assert.That(server.Stop(), Is.True);
        release.Set();

        await Wait.For(client.Closed, "the client sees the late connection closed");
        Assert.That(server.ConnectedSessions, Is.EqualTo(0), "the connection accepted during Stop is not kept");
        Assert.That(server.IsStarted, Is.False);
        Assert.That(server.Log.Snapshot(), Has.No.Member("server.OnConnected"), "no hooks for a connection the stopped server refused");
        Assert.That(server.LastSession?.Log.Snapshot() ?? Array.Empty<string>(), Is.Empty, "the refused session ran no hook");
    }

    [Test]
    public async Task ACreateSessionThatThrowsCostsOnlyThatConnection()
    {
        var failures = 1;
        using var server = StartServer(s => s.OnCreateSession = () =>
        {
            if (Interlocked.Decrement(ref failures) >= 0)
                throw new InvalidOperationException("no session for you");
        });
        using var refused = new TestClient(_transport, server);
        refused.Client.ConnectAsync();
        await Wait.For(refused.Closed, "the first connection is closed");

        for (var i = 0; i < 2; i++)
        {
            using var client = new TestClient(_transport, server);
            Assert.That(await Wait.For(client.ConnectAndWaitAsync(), $"connection {i + 2} connects"), Is.True);
            Assert.That(client.SendAsync("ping"), Is.True);
            await Wait.For(client.Received.Reaches(4), $"connection {i + 2} is echoed");
            await client.DisconnectAndWaitAsync();
        }
        Assert.That(server.IsAccepting, Is.True);
        Assert.That(server.Log.Snapshot(), Does.Contain("server.OnHandlerException no session for you"), "the server reports the failed CreateSession");
    }

    [Test]
    public async Task AZeroDisconnectTimeoutClosesAtOnceEvenWhenThePeerStopsReading()
    {
        using var server = StartServer(s => s.Echo = false);
        using var client = new TestClient(_transport, server);
        // The synchronous Connect does not start receiving: this client never reads.
        Assert.That(client.Connect(), Is.True);
        await Wait.For(server.Connected.Reaches(1), "session connected");
        var session = server.LastSession!;
        session.Session.OptionDisconnectTimeout = TimeSpan.Zero;
        for (var i = 0; i < 64; i++)
            Assert.That(session.SendAsync(new byte[128 * 1024]), Is.True, "8 MiB queued for a peer that does not read");

        Assert.That(session.Disconnect(), Is.True);

        await Wait.For(session.Closed, "session closed at once with a zero disconnect timeout");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.Local));
        await Wait.Until(() => server.ConnectedSessions == 0, "no session left registered (a session leaves the table after its OnDisconnected)");
    }

    [Test]
    public void ANegativeOrInfiniteDisconnectTimeoutIsRefused()
    {
        using var server = StartServer();
        using var client = new TestClient(_transport, server);
        Assert.That(() => client.Client.OptionDisconnectTimeout = Timeout.InfiniteTimeSpan, Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => client.Client.OptionDisconnectTimeout = TimeSpan.FromSeconds(-2), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(client.Client.OptionDisconnectTimeout, Is.EqualTo(TimeSpan.FromSeconds(5)), "the default is kept");
    }
}
