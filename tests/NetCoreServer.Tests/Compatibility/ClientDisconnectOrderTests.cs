using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// NetCoreServer's chat clients end with <c>DisconnectAsync()</c> (or a WebSocket's <c>CloseAsync(1000)</c>), then
/// <c>while (IsConnected) Thread.Yield();</c>, print "Done!" and exit. NetCoreServer runs the teardown inside those calls,
/// so by then every disconnect hook has run. These tests do what those programs do, on every client type, with the
/// runtime's socket engine and with event loops, and check that the hooks had run, in NetCoreServer's order.
/// </summary>
[TestFixture]
public sealed class ClientDisconnectOrderTests
{
    public enum Kind
    {
        Tcp,
        Ssl,
        Uds,
        Http,
        Https,
        Ws,
        Wss,
    }

    public enum Ending
    {
        Disconnect,
        DisconnectAsync,
        Close,
        CloseAsync,
    }

    // The examples' shape: a polling loop, bounded here so that a failure is reported instead of hanging.
    private static readonly TimeSpan s_pollLimit = TimeSpan.FromSeconds(15);

    private static IEnumerable<TestCaseData> Endings()
    {
        foreach (var kind in Enum.GetValues<Kind>())
        {
            foreach (var ending in Enum.GetValues<Ending>())
            {
                if (ending >= Ending.Close && kind is not (Kind.Ws or Kind.Wss))
                    continue;
                foreach (var loops in new[] { 0, 2 })
                    yield return new TestCaseData(kind, ending, loops);
            }
        }
    }

    private static IEnumerable<TestCaseData> Kinds()
    {
        foreach (var kind in Enum.GetValues<Kind>())
        {
            foreach (var loops in new[] { 0, 2 })
                yield return new TestCaseData(kind, loops);
        }
    }

    private static string[] ConnectHooks(Kind kind) => kind switch
    {
        Kind.Ssl or Kind.Https => ["OnConnected", "OnHandshaked"],
        Kind.Ws => ["OnConnected", "OnWsConnected"],
        Kind.Wss => ["OnConnected", "OnHandshaked", "OnWsConnected"],
        _ => ["OnConnected"],
    };

    // NetCoreServer's WsClient raises OnWsDisconnecting from OnDisconnecting and OnWsDisconnected from OnDisconnected.
    private static string[] DisconnectHooks(Kind kind) => kind is Kind.Ws or Kind.Wss
        ? ["OnWsDisconnecting", "OnDisconnecting", "OnWsDisconnected", "OnDisconnected"]
        : ["OnDisconnecting", "OnDisconnected"];

    private static string[] OneConnection(Kind kind) => [.. ConnectHooks(kind), .. DisconnectHooks(kind)];

    [TestCaseSource(nameof(Endings))]
    public async Task TheDisconnectHooksHaveRunWhenIsConnectedTurnsFalse(Kind kind, Ending ending, int loops)
    {
        using var pair = await Pair.Connected(kind, loops);

        Assert.That(End(pair.Client, ending), Is.True, $"{ending} returns true");
        PollWhileConnected(pair.Client);

        Assert.That(pair.Probe.Hooks.Snapshot(), Is.EqualTo(OneConnection(kind)), "the hooks that had run when IsConnected turned false");
    }

    [Test]
    public async Task DisconnectWaitsForASlowOnDisconnectedEvenWithAZeroDisconnectTimeout()
    {
        using var pair = await Pair.Connected(Kind.Tcp, 0, client =>
        {
            client.OptionDisconnectTimeout = TimeSpan.Zero;
            // Longer than the second the blocking Disconnect used to allow after closing.
            ((IDisconnectOrderClient)client).Probe.DisconnectedDelay = TimeSpan.FromMilliseconds(1500);
        });

        Assert.That(pair.Client.DisconnectAsync(), Is.True);

        Assert.That(pair.Probe.Hooks.Snapshot(), Is.EqualTo(OneConnection(Kind.Tcp)), "the hooks that had run when DisconnectAsync returned");
    }

    [TestCaseSource(nameof(Kinds))]
    public async Task AClientReconnectsFromOnDisconnectedAsNetCoreServersExamplesDo(Kind kind, int loops)
    {
        using var pair = await Pair.Connected(kind, loops);
        pair.Probe.Stop = false;

        Assert.That(pair.Client.DisconnectAsync(), Is.True);
        // The new connection's first hooks may have run inside ConnectAsync already (a Unix socket connects at once).
        Assert.That(pair.Probe.Hooks.Snapshot().Take(OneConnection(kind).Length), Is.EqualTo(OneConnection(kind)), "the hooks that had run when DisconnectAsync returned");
        var ready = ConnectHooks(kind)[^1];
        await Wait.For(pair.Probe.Hooks.Logged(ready, 2), $"the second {ready}, from the ConnectAsync in OnDisconnected");

        pair.Probe.Stop = true;
        Assert.That(pair.Client.DisconnectAsync(), Is.True);
        PollWhileConnected(pair.Client);
        Assert.That(pair.Probe.Hooks.Snapshot(), Is.EqualTo(OneConnection(kind).Concat(OneConnection(kind))), "two whole connections");
    }

    [TestCaseSource(nameof(Endings))]
    public async Task EndingFromInsideAHookReturnsAndTheHooksFollow(Kind kind, Ending ending, int loops)
    {
        var returned = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        using var pair = await Pair.Connected(kind, loops, client =>
            ((IDisconnectOrderClient)client).Probe.InsideFirstReady = () => returned.TrySetResult(End(client, ending)));

        Assert.That(await Wait.For(returned.Task, $"{ending} called inside {ConnectHooks(kind)[^1]} to return"), Is.True);
        await Wait.For(pair.Probe.Hooks.Logged("OnDisconnected"), "OnDisconnected after the call from inside the hook");

        Assert.That(pair.Probe.Hooks.Snapshot(), Is.EqualTo(OneConnection(kind)));
    }

    private static bool End(StreamClient client, Ending ending) => (ending, client) switch
    {
        (Ending.Disconnect, _) => client.Disconnect(),
        (Ending.DisconnectAsync, _) => client.DisconnectAsync(),
        (Ending.Close, WsClient ws) => ws.Close(1000),
        (Ending.Close, WssClient wss) => wss.Close(1000),
        (Ending.CloseAsync, WsClient ws) => ws.CloseAsync(1000),
        (Ending.CloseAsync, WssClient wss) => wss.CloseAsync(1000),
        _ => throw new ArgumentOutOfRangeException(nameof(ending), ending, "not a WebSocket client"),
    };

    /// <summary>The examples' <c>while (IsConnected) Thread.Yield();</c>, with a deadline.</summary>
    private static void PollWhileConnected(StreamClient client)
    {
        var clock = Stopwatch.StartNew();
        while (client.IsConnected)
        {
            if (clock.Elapsed > s_pollLimit)
                Assert.Fail($"IsConnected still true {s_pollLimit.TotalSeconds:0} s after the call");
            Thread.Yield();
        }
    }

    /// <summary>A started server of the client's kind and a client connected to it (upgraded, for WebSocket).</summary>
    private sealed class Pair : IDisposable
    {
        private readonly IDisposable _server;
        private readonly string? _path;

        private Pair(IDisposable server, StreamClient client, string? path)
        {
            _server = server;
            Client = client;
            _path = path;
        }

        public StreamClient Client { get; }

        public DisconnectOrderProbe Probe => ((IDisconnectOrderClient)Client).Probe;

        public static async Task<Pair> Connected(Kind kind, int loops, Action<StreamClient>? configure = null)
        {
            var pair = Create(kind);
            try
            {
                pair.Client.OptionEventLoops = loops;
                configure?.Invoke(pair.Client);
                Assert.That(pair.Client.ConnectAsync(), Is.True);
                var ready = ConnectHooks(kind)[^1];
                await Wait.For(pair.Probe.Hooks.Logged(ready), ready);
                return pair;
            }
            catch
            {
                pair.Dispose();
                throw;
            }
        }

        private static Pair Create(Kind kind)
        {
            if (kind == Kind.Uds)
            {
                var path = UdsTestTransport.NewPath();
                var uds = new UdsServer(path);
                Assert.That(uds.Start(), Is.True);
                return new Pair(uds, new OrderUdsClient(new UnixDomainSocketEndPoint(path)), path);
            }
            var (server, endpoint) = kind switch
            {
                Kind.Tcp => Started(new TcpServer(IPAddress.Loopback, 0)),
                Kind.Ssl => Started(new SslServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0)),
                Kind.Http => Started(new HttpServer(IPAddress.Loopback, 0)),
                Kind.Https => Started(new HttpsServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0)),
                Kind.Ws => Started(new WsServer(IPAddress.Loopback, 0)),
                _ => Started(new WssServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0)),
            };
            var port = endpoint.Port;
            StreamClient client = kind switch
            {
                Kind.Tcp => new OrderTcpClient(IPAddress.Loopback, port),
                Kind.Ssl => new OrderSslClient(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, port),
                Kind.Http => new OrderHttpClient(IPAddress.Loopback, port),
                Kind.Https => new OrderHttpsClient(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, port),
                Kind.Ws => new OrderWsClient(IPAddress.Loopback, port),
                _ => new OrderWssClient(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, port),
            };
            return new Pair(server, client, null);
        }

        private static (IDisposable Server, IPEndPoint Endpoint) Started<TSession>(StreamServer<TSession> server)
            where TSession : StreamSession
        {
            Assert.That(server.Start(), Is.True);
            return (server, (IPEndPoint)server.Endpoint);
        }

        public void Dispose()
        {
            Probe.Stop = true;
            Client.Dispose();
            _server.Dispose();
            if (_path != null)
                System.IO.File.Delete(_path);
        }
    }
}
