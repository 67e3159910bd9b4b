using System;
using System.Net;
using System.Net.Sockets;
using System.Net.WebSockets;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Lifecycle;

/// <summary>
/// StopAsync, the drain a host runs on SIGTERM: no new connection is accepted, sessions deliver what they queued (a
/// WebSocket client is told 1001 "going away"), and what is left when the host's time is up is closed at once.
/// </summary>
[TestFixture]
public sealed class DrainTests
{
    private const int Queued = 4 * 1024 * 1024;

    /// <summary>Each session queues <see cref="Queued"/> bytes as soon as it is connected.</summary>
    private sealed class BulkServer() : TcpServer(IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource<BulkSession> Connected = new(TaskCreationOptions.RunContinuationsAsynchronously);
        public readonly TaskCompletionSource Stopped = new(TaskCreationOptions.RunContinuationsAsynchronously);
        public TimeSpan SessionDisconnectTimeout = TimeSpan.FromSeconds(30);

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new BulkSession(this) { OptionDisconnectTimeout = SessionDisconnectTimeout };

        protected override void OnConnected(TcpSession session) => Connected.TrySetResult((BulkSession)session);

        protected override void OnStopped() => Stopped.TrySetResult();
    }

    private sealed class BulkSession(TcpServer server) : TcpSession(server)
    {
        protected override void OnConnected() => SendAsync(new byte[Queued]);
    }

    private sealed class QuietWsServer() : WsServer(IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource Upgraded = new(TaskCreationOptions.RunContinuationsAsynchronously);

        protected override TcpSession CreateSession() => new QuietWsSession(this);

        private sealed class QuietWsSession(QuietWsServer server) : WsSession(server)
        {
            public override void OnWsConnected(HttpRequest request) => server.Upgraded.TrySetResult();
        }
    }

    private static async Task<Socket> ConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await Wait.For(socket.ConnectAsync(IPAddress.Loopback, port), "connect");
        return socket;
    }

    private static async Task<long> ReadToEndAsync(Socket socket)
    {
        var buffer = new byte[64 * 1024];
        long total = 0;
        while (true)
        {
            var read = await socket.ReceiveAsync(buffer, SocketFlags.None);
            if (read == 0)
                return total;
            total += read;
        }
    }

    [Test]
    public async Task StopAsyncStopsAcceptingAndDeliversWhatWasQueuedBeforeClosing()
    {
        using var server = new BulkServer();
        Assert.That(server.Start(), Is.True);
        var port = server.BoundPort;
        using var client = await ConnectAsync(port);
        var session = await Wait.For(server.Connected.Task, "the session connected");

        var stopping = server.StopAsync();

        Assert.That(server.IsAccepting, Is.False, "accepting stops at once");
        using (var late = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
            Assert.That(async () => await late.ConnectAsync(IPAddress.Loopback, port), Throws.InstanceOf<SocketException>(), "a new connection is refused");
        Assert.That(stopping.IsCompleted, Is.False, "the drain waits for the session");
        Assert.That(await Wait.For(ReadToEndAsync(client), "every queued byte, then the end of the stream"), Is.EqualTo(Queued));
        client.Close();
        Assert.That(await Wait.For(stopping, "StopAsync once the session closed"), Is.True);
        Assert.That(server.Stopped.Task.IsCompleted, Is.True, "OnStopped ran");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.ServerStopped));
        Assert.That(server.IsStarted, Is.False);
        Assert.That(await server.StopAsync(), Is.False, "a stopped server has nothing to drain");
    }

    [Test]
    public async Task StopAsyncClosesWhatIsLeftWhenTheTokenIsCancelled()
    {
        // The disconnect timeout alone would keep the drain for an hour: only the token can end it.
        using var server = new BulkServer { SessionDisconnectTimeout = TimeSpan.FromHours(1) };
        Assert.That(server.Start(), Is.True);
        using var client = await ConnectAsync(server.BoundPort);
        client.ReceiveBufferSize = 4096;
        var session = await Wait.For(server.Connected.Task, "the session connected");
        using var cancel = new CancellationTokenSource();

        var stopping = server.StopAsync(cancel.Token);
        Assert.That(stopping.IsCompleted, Is.False, "a client that reads nothing holds the drain");
        cancel.Cancel();

        Assert.That(await Wait.For(stopping, "StopAsync after the cancel"), Is.True, "a cancelled drain still stops, without throwing");
        Assert.That(session.IsConnected, Is.False);
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.ServerStopped));
        Assert.That(server.ConnectedSessions, Is.EqualTo(0));
    }

    [Test]
    public async Task StopAsyncClosesWebSocketClientsWithGoingAway()
    {
        using var server = new QuietWsServer();
        Assert.That(server.Start(), Is.True);
        using var timeout = new CancellationTokenSource(Wait.Default);
        using var ws = new ClientWebSocket();
        await ws.ConnectAsync(new Uri($"ws://127.0.0.1:{((IPEndPoint)server.Endpoint).Port}/"), timeout.Token);
        await Wait.For(server.Upgraded.Task, "the upgrade");

        var stopping = server.StopAsync();

        var received = await ws.ReceiveAsync(new byte[256], timeout.Token);
        Assert.That(received.MessageType, Is.EqualTo(WebSocketMessageType.Close));
        Assert.That(ws.CloseStatus, Is.EqualTo(WebSocketCloseStatus.EndpointUnavailable), "1001 going away");
        await ws.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, "", timeout.Token);
        Assert.That(await Wait.For(stopping, "StopAsync once the client answered the close"), Is.True);
    }
}
