using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Tests.Support;
using NetCoreServer.Tests.WebSockets;
using NetCoreServer.Tests.WebSockets.Live;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>
/// Every blocking public member called on an event loop's thread (from a hook of a session served by a single loop)
/// keeps NetCoreServer's meaning, as on the thread pool: it hands the loop to another thread before it waits, then
/// waits for what it waits for there (often work of the same loop), and a second client on the same loop is answered
/// meanwhile. Before the handoff these calls threw or queued and returned; before that, they hung the loop.
/// </summary>
[TestFixture]
public sealed class EventLoopBlockingCallTests
{
    // Large enough that no socket buffer takes it: only a peer that reads lets a waiting send return.
    private const int Big = 12 * 1024 * 1024;

    // What the calls wait for (a connect, a handshake, 12 MiB read by a session of the loop) takes well under this.
    private static readonly TimeSpan CallLimit = TimeSpan.FromSeconds(15);

    private const string LoopThread = "NetCoreServer event loop ";

    [SetUp]
    public void LinuxOnly()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
    }

    /// <summary>A TCP server on one loop whose session runs <see cref="OnLoop"/> when it receives "go", and echoes anything else.</summary>
    private sealed class HookServer(IPAddress address) : TcpServer(address, 0)
    {
        public Func<object?> OnLoop = static () => null;

        public readonly TaskCompletionSource<object?> Outcome = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public readonly TaskCompletionSource Started = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public string? HookThread;

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new HookSession(this);
    }

    private sealed class HookSession(HookServer server) : TcpSession(server)
    {
        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            if (Encoding.ASCII.GetString(buffer, (int)offset, (int)size) != "go")
            {
                SendAsync(buffer, offset, size);
                return;
            }
            server.HookThread = Thread.CurrentThread.Name;
            server.Started.TrySetResult();
            try
            {
                server.Outcome.TrySetResult(server.OnLoop());
            }
            catch (Exception exception)
            {
                server.Outcome.TrySetException(exception);
            }
        }
    }

    private static async Task<Socket> RawConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, ReceiveBufferSize = 4096 };
        await socket.ConnectAsync(IPAddress.Loopback, port);
        return socket;
    }

    /// <summary>A second connection to the same loop is answered: the loop is not stalled.</summary>
    private static async Task AssertTheLoopStillEchoes(int port)
    {
        using var second = await RawConnectAsync(port);
        await EchoAsync(second);
    }

    private static async Task EchoAsync(Socket second)
    {
        await second.SendAsync("ping"u8.ToArray(), SocketFlags.None);
        var answer = new byte[4];
        var read = 0;
        while (read < 4)
        {
            var n = await Wait.For(second.ReceiveAsync(answer.AsMemory(read), SocketFlags.None).AsTask(), "the loop answering a second client");
            Assert.That(n, Is.GreaterThan(0), "the second client's echo");
            read += n;
        }
        Assert.That(Encoding.ASCII.GetString(answer), Is.EqualTo("ping"));
    }

    /// <summary>Runs <paramref name="onLoop"/> in a hook of a single-loop server and returns what it returned or threw.</summary>
    private static async Task<Task<object?>> RunOnLoopAsync(HookServer server, Func<object?> onLoop)
    {
        server.OnLoop = onLoop;
        using var first = await RawConnectAsync(server.BoundPort);
        // A round trip first: the first read of an accepted session may run on the accepting thread; later ones run on the loop.
        await EchoAsync(first);
        await first.SendAsync("go"u8.ToArray(), SocketFlags.None);
        var outcome = server.Outcome.Task;
        await Wait.For(outcome, "the blocking call returning on the loop's thread, once what it waited for was done", CallLimit);
        Assert.That(server.HookThread, Does.StartWith(LoopThread), "the hook ran on the loop");
        return outcome;
    }

    [Test]
    public async Task ASynchronousClientConnectOnALoopThreadConnects()
    {
        using var server = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        using var target = new HookServer(IPAddress.Loopback);
        Assert.That(target.Start(), Is.True);
        using var client = new TcpClient(IPAddress.Loopback, target.BoundPort);
        var outcome = await RunOnLoopAsync(server, () => client.Connect());
        Assert.That(outcome.Result, Is.EqualTo(true), "Connect returned true");
        Assert.That(client.IsConnected, Is.True);
        await AssertTheLoopStillEchoes(server.BoundPort);
    }

    [Test]
    public async Task ASynchronousTlsConnectOnALoopThreadCompletesTheHandshakeWithAServerOnTheSameLoop()
    {
        using var server = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        // The TLS server is on the same loop: its half of the handshake can only run once the hook has returned.
        using var tls = new SslServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0) { OptionEventLoops = 1 };
        Assert.That(tls.Start(), Is.True);
        using var client = new SslClient(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, ((IPEndPoint)tls.Endpoint).Port);
        var outcome = await RunOnLoopAsync(server, () => client.Connect() && client.IsHandshaked);
        Assert.That(outcome.Result, Is.EqualTo(true), "connected and handshaked when Connect returned");
        await AssertTheLoopStillEchoes(server.BoundPort);
    }

    [Test]
    public async Task ASynchronousClientDisconnectOnALoopThreadReturnsOnceTheClientHasDisconnected()
    {
        using var server = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        // A client whose unsent data only the loop's own session can take: Disconnect waits for the loop.
        using var client = new TcpClient(IPAddress.Loopback, server.BoundPort) { OptionDisconnectTimeout = TimeSpan.FromSeconds(60) };
        Assert.That(await client.ConnectAndWaitAsync(), Is.True);
        var outcome = await RunOnLoopAsync(server, () =>
        {
            client.SendAsync(new byte[Big]);
            return (client.Disconnect(), client.IsConnected, client.BytesSent);
        });
        Assert.That(outcome.Result, Is.EqualTo((true, false, (long)Big)), "Disconnect returned true once the data was sent and the client disconnected");
        await AssertTheLoopStillEchoes(server.BoundPort);
    }

    private sealed class CountingClient(IPAddress address, int port) : TcpClient(address, port)
    {
        private int _connects;

        public readonly TaskCompletionSource Reconnected = new(TaskCreationOptions.RunContinuationsAsynchronously);

        protected override void OnConnected()
        {
            if (Interlocked.Increment(ref _connects) == 2)
                Reconnected.TrySetResult();
        }
    }

    [Test]
    public async Task ReconnectAsyncOnALoopThreadConnectsOnceTheDisconnectHasCompleted()
    {
        // ReconnectAsync is what Reconnect's refusal points to: it must work where Disconnect does not wait.
        using var server = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        // Its data waits for the loop's own session to read it: the disconnect cannot complete inside the hook.
        using var client = new CountingClient(IPAddress.Loopback, server.BoundPort);
        Assert.That(await client.ConnectAndWaitAsync(), Is.True);
        var outcome = await RunOnLoopAsync(server, () =>
        {
            client.SendAsync(new byte[Big]);
            return client.ReconnectAsync();
        });
        Assert.That(outcome.Result, Is.EqualTo(true), "the reconnect started");
        await Wait.For(client.Reconnected.Task, "the client connected again");
        Assert.That(client.IsConnected, Is.True);
        await AssertTheLoopStillEchoes(server.BoundPort);
    }

    [Test]
    public async Task ASynchronousReconnectOnALoopThreadReconnects()
    {
        using var server = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        using var target = new HookServer(IPAddress.Loopback);
        Assert.That(target.Start(), Is.True);
        using var client = new TcpClient(IPAddress.Loopback, target.BoundPort);
        Assert.That(await client.ConnectAndWaitAsync(), Is.True);
        var outcome = await RunOnLoopAsync(server, () => client.Reconnect());
        Assert.That(outcome.Result, Is.EqualTo(true), "Reconnect returned true");
        Assert.That(client.IsConnected, Is.True, "connected again");
        await AssertTheLoopStillEchoes(server.BoundPort);
    }

    [Test]
    public async Task ABlockingReceiveOnALoopThreadReceivesWhatAServerOnTheSameLoopAnswered()
    {
        using var server = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        // The echo comes from a session of the same loop: it can only answer once the hook's thread has left the loop.
        using var target = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(target.Start(), Is.True);
        using var client = new TcpClient(IPAddress.Loopback, target.BoundPort);
        Assert.That(client.Connect(), Is.True);
        var outcome = await RunOnLoopAsync(server, () =>
        {
            client.Send("pong");
            var answer = new byte[4];
            var read = 0L;
            while (read < answer.Length)
            {
                var n = client.Receive(answer, read, answer.Length - read);
                if (n <= 0)
                    break;
                read += n;
            }
            return Encoding.ASCII.GetString(answer, 0, (int)read);
        });
        Assert.That(outcome.Result, Is.EqualTo("pong"), "the blocking Receive returned the echo");
        await AssertTheLoopStillEchoes(server.BoundPort);
    }

    /// <summary>A WebSocket server on one loop whose session runs <see cref="OnLoop"/> on a "go" message, and echoes anything else as text.</summary>
    private sealed class WsHookServer(IPAddress address) : WsServer(address, 0)
    {
        public Func<WsSession, object?> OnLoop = static _ => null;

        public readonly TaskCompletionSource<object?> Outcome = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public readonly TaskCompletionSource Started = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public string? HookThread;

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new WsHookSession(this);
    }

    private sealed class WsHookSession(WsHookServer server) : WsSession(server)
    {
        public override void OnWsReceived(byte[] buffer, long offset, long size)
        {
            var text = Encoding.UTF8.GetString(buffer, (int)offset, (int)size);
            if (text != "go")
            {
                SendTextAsync(text);
                return;
            }
            server.HookThread = Thread.CurrentThread.Name;
            server.Started.TrySetResult();
            try
            {
                server.Outcome.TrySetResult(server.OnLoop(this));
            }
            catch (Exception exception)
            {
                server.Outcome.TrySetException(exception);
            }
        }
    }

    /// <summary>
    /// Runs <paramref name="onLoop"/> in OnWsReceived of a peer that does not read yet: the call waits while a second
    /// peer is answered, and returns once the first has read the <paramref name="frames"/> it was sent.
    /// </summary>
    private static async Task<object?> RunInWsHookAsync(Func<WsSession, object?> onLoop, int frames = 1)
    {
        using var server = new WsHookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        server.OnLoop = onLoop;
        Assert.That(server.Start(), Is.True);
        using var stuck = await RawWsClient.UpgradeAsync(WsTransport.Ws, server.BoundPort);
        await stuck.SendFrameAsync(0x81, "go"u8.ToArray());
        await Wait.For(server.Started.Task, "the hook starting", CallLimit);
        Assert.That(server.HookThread, Does.StartWith(LoopThread), "the hook ran on the loop");
        using var second = await RawWsClient.UpgradeAsync(WsTransport.Ws, server.BoundPort);
        await second.SendFrameAsync(0x81, "ping"u8.ToArray());
        var echo = await Wait.For(second.ReadFrameAsync(), "the loop answering a second client while the call waits");
        Assert.That(echo?.Text, Is.EqualTo("ping"));
        var outcome = server.Outcome.Task;
        Assert.That(outcome.IsCompleted, Is.False, "the call waits for a peer that does not read");
        for (var i = 0; i < frames; i++)
            Assert.That(await Wait.For(stuck.ReadFrameAsync(), "the frames the call sent", CallLimit), Is.Not.Null);
        return await Wait.For(outcome, "the call returning once its peer read what it sent", CallLimit);
    }

    [Test]
    public async Task ABlockingWsSendBinaryOnALoopThreadReturnsTheFrameSizeOnceThePeerTookIt()
    {
        var sent = await RunInWsHookAsync(session => session.SendBinary(new byte[Big]));
        Assert.That(sent, Is.EqualTo((long)Big + 10), "the frame's size on the wire");
    }

    [Test]
    public async Task ABlockingWsSendTextOnALoopThreadReturnsTheFrameSizeOnceThePeerTookIt()
    {
        var sent = await RunInWsHookAsync(session => session.SendText(new string('a', Big)));
        Assert.That(sent, Is.EqualTo((long)Big + 10));
    }

    [Test]
    public async Task ABlockingWsCloseOnALoopThreadReturnsOnceThePeerTookTheCloseFrame()
    {
        // A server session's Close waits for its close frame to be sent, not for the connection to close (as ever).
        var closed = await RunInWsHookAsync(session =>
        {
            session.SendBinaryAsync(new byte[Big]);
            return session.Close(1000);
        }, frames: 2);
        Assert.That(closed, Is.EqualTo(true), "the close was sent");
    }

    private sealed class UpgradedClient(IPAddress address, int port) : WsClient(address, port)
    {
        public readonly TaskCompletionSource Upgraded = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnWsConnected(HttpResponse response) => Upgraded.TrySetResult();
    }

    [Test]
    public async Task ABlockingWsClientCloseOnALoopThreadReturnsOnceTheClientHasClosed()
    {
        using var echo = new WsHookServer(IPAddress.Loopback);
        Assert.That(echo.Start(), Is.True);
        using var server = new HookServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        // The client is on the same loop: the server's answer to its close frame can only be read once the hook returned.
        using var client = new UpgradedClient(IPAddress.Loopback, echo.BoundPort) { OptionEventLoops = 1 };
        Assert.That(client.ConnectAsync(), Is.True);
        await Wait.For(client.Upgraded.Task, "the WebSocket client upgraded");
        var outcome = await RunOnLoopAsync(server, () => (client.Close(1000), client.IsConnected));
        Assert.That(outcome.Result, Is.EqualTo((true, false)), "Close returned true once the loop had read the server's answer and the client closed");
        await AssertTheLoopStillEchoes(server.BoundPort);
    }

    /// <summary>An HTTP server on one loop that answers /big with a body no socket buffer takes, through the blocking SendResponse.</summary>
    private sealed class BigHttpServer(IPAddress address) : HttpServer(address, 0)
    {
        public readonly TaskCompletionSource<long> Sent = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public readonly TaskCompletionSource Started = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public string? HookThread;

        protected override TcpSession CreateSession() => new BigHttpSession(this);
    }

    private sealed class BigHttpSession(BigHttpServer server) : HttpSession(server)
    {
        protected override void OnReceivedRequest(HttpRequest request)
        {
            if (request.Url != "/big")
            {
                SendResponse(Response.MakeGetResponse("small"));
                return;
            }
            server.HookThread = Thread.CurrentThread.Name;
            server.Started.TrySetResult();
            server.Sent.TrySetResult(SendResponse(Response.MakeGetResponse(new byte[Big])));
        }
    }

    [Test]
    public async Task ABlockingHttpSendResponseOnALoopThreadReturnsOnceThePeerTookTheResponse()
    {
        using var server = new BigHttpServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;
        using var stuck = await RawConnectAsync(port);
        await AssertSmallAnswerAsync(stuck);
        await stuck.SendAsync("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n"u8.ToArray(), SocketFlags.None);
        await Wait.For(server.Started.Task, "the request hook starting", CallLimit);
        using var second = await RawConnectAsync(port);
        await AssertSmallAnswerAsync(second);
        Assert.That(server.Sent.Task.IsCompleted, Is.False, "SendResponse waits for a peer that does not read");
        // The head, then exactly Big bytes of body.
        var chunk = new byte[256 * 1024];
        var read = await Wait.For(stuck.ReceiveAsync(chunk, SocketFlags.None), "the big response's head", CallLimit);
        var head = chunk.AsSpan(0, read).IndexOf("\r\n\r\n"u8);
        Assert.That(head, Is.GreaterThan(0), "the head came in the first read");
        long total = read, expected = head + 4 + Big;
        while (total < expected)
            total += await Wait.For(stuck.ReceiveAsync(chunk, SocketFlags.None), "the big response", CallLimit);
        var sent = await Wait.For(server.Sent.Task, "SendResponse returning once the peer read the response", CallLimit);
        Assert.That(server.HookThread, Does.StartWith(LoopThread), "the hook ran on the loop");
        Assert.That(sent, Is.GreaterThan(Big), "the whole response was sent");
    }

    private static async Task AssertSmallAnswerAsync(Socket socket)
    {
        await socket.SendAsync("GET /small HTTP/1.1\r\nHost: localhost\r\n\r\n"u8.ToArray(), SocketFlags.None);
        // The whole answer: its head and body may come in two reads, and a byte left here would open the next read.
        var answer = new byte[4096];
        int n = 0, read;
        string text;
        do
        {
            read = await Wait.For(socket.ReceiveAsync(answer.AsMemory(n), SocketFlags.None).AsTask(), "the loop answering a small request");
            n += read;
            text = Encoding.ASCII.GetString(answer, 0, n);
        }
        while (read > 0 && !text.EndsWith("\r\n\r\nsmall", StringComparison.Ordinal));
        Assert.That(text, Does.StartWith("HTTP/1.1 200"));
    }
}
