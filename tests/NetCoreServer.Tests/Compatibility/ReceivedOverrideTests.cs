using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// NetCoreServer's HTTP and WebSocket classes parse in their <c>OnReceived</c> override: a subclass that overrides it
/// sees every raw chunk, <c>base.OnReceived</c> parses it, and an override that does not call base turns parsing off
/// (NetCoreServer's HttpTraceClient counts bytes there). Both sides of each pair are subclassed here.
/// </summary>
[TestFixture]
public sealed class ReceivedOverrideTests
{
    private static TaskCompletionSource<T> Signal<T>() => new(TaskCreationOptions.RunContinuationsAsynchronously);

    private sealed class CountingHttpSession(HttpServer server, bool callBase) : HttpSession(server)
    {
        public long Counted;
        public readonly TaskCompletionSource<bool> Requested = Signal<bool>();
        public readonly TaskCompletionSource<bool> Bytes = Signal<bool>();
        private volatile Waiter? _waiter;

        private sealed record Waiter(long Bytes, TaskCompletionSource<bool> Done);

        /// <summary>Completes once the override has counted <paramref name="bytes"/> in all.</summary>
        public Task Reached(long bytes)
        {
            var waiter = new Waiter(bytes, Signal<bool>());
            _waiter = waiter;
            if (Interlocked.Read(ref Counted) >= bytes)
                waiter.Done.TrySetResult(true);
            return waiter.Done.Task;
        }

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            var counted = Interlocked.Add(ref Counted, size);
            if (_waiter is { } waiter && counted >= waiter.Bytes)
                waiter.Done.TrySetResult(true);
            Bytes.TrySetResult(true);
            if (callBase)
                base.OnReceived(buffer, offset, size);
        }

        protected override void OnReceivedRequest(HttpRequest request)
        {
            Requested.TrySetResult(true);
            SendResponseAsync(Response.MakeGetResponse("hello"));
        }
    }

    private sealed class CountingHttpServer(bool callBase) : HttpServer(IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource<CountingHttpSession> Session = Signal<CountingHttpSession>();

        protected override TcpSession CreateSession()
        {
            var session = new CountingHttpSession(this, callBase);
            Session.TrySetResult(session);
            return session;
        }
    }

    private sealed class CountingHttpsSession(HttpsServer server) : HttpsSession(server)
    {
        public long Counted;
        public readonly TaskCompletionSource<bool> Requested = Signal<bool>();

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Counted, size);
            base.OnReceived(buffer, offset, size);
        }

        protected override void OnReceivedRequest(HttpRequest request)
        {
            Requested.TrySetResult(true);
            SendResponseAsync(Response.MakeGetResponse("hello"));
        }
    }

    private sealed class CountingHttpsServer(SslContext context) : HttpsServer(context, IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource<CountingHttpsSession> Session = Signal<CountingHttpsSession>();

        protected override SslSession CreateSession()
        {
            var session = new CountingHttpsSession(this);
            Session.TrySetResult(session);
            return session;
        }
    }

    private sealed class CountingHttpClient(int port, bool callBase) : HttpClientEx(IPAddress.Loopback, port)
    {
        public long Counted;
        public readonly TaskCompletionSource<bool> Bytes = Signal<bool>();
        public readonly TaskCompletionSource<bool> Answered = Signal<bool>();

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Counted, size);
            Bytes.TrySetResult(true);
            if (callBase)
                base.OnReceived(buffer, offset, size);
        }

        protected override void OnReceivedResponse(HttpResponse response)
        {
            Answered.TrySetResult(true);
            base.OnReceivedResponse(response);
        }
    }

    private sealed class CountingHttpsClient(SslContext context, int port) : HttpsClientEx(context, IPAddress.Loopback, port)
    {
        public long Counted;

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Counted, size);
            base.OnReceived(buffer, offset, size);
        }
    }

    private sealed class CountingWsSession(WsServer server, bool callBase) : WsSession(server)
    {
        public long Counted;
        public readonly TaskCompletionSource<bool> Bytes = Signal<bool>();
        public readonly TaskCompletionSource<bool> Connected = Signal<bool>();
        public readonly TaskCompletionSource<string> Message = Signal<string>();

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Counted, size);
            Bytes.TrySetResult(true);
            if (callBase)
                base.OnReceived(buffer, offset, size);
        }

        public override void OnWsConnected(HttpRequest request)
        {
            Connected.TrySetResult(true);
            SendTextAsync("hi");
        }

        public override void OnWsReceived(byte[] buffer, long offset, long size) => Message.TrySetResult(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
    }

    private sealed class CountingWsServer(bool callBase) : WsServer(IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource<CountingWsSession> Session = Signal<CountingWsSession>();

        protected override TcpSession CreateSession()
        {
            var session = new CountingWsSession(this, callBase);
            Session.TrySetResult(session);
            return session;
        }
    }

    private sealed class CountingWssSession(WssServer server) : WssSession(server)
    {
        public long Counted;
        public readonly TaskCompletionSource<string> Message = Signal<string>();

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Counted, size);
            base.OnReceived(buffer, offset, size);
        }

        public override void OnWsConnected(HttpRequest request) => SendTextAsync("hi");

        public override void OnWsReceived(byte[] buffer, long offset, long size) => Message.TrySetResult(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
    }

    private sealed class CountingWssServer(SslContext context) : WssServer(context, IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource<CountingWssSession> Session = Signal<CountingWssSession>();

        protected override SslSession CreateSession()
        {
            var session = new CountingWssSession(this);
            Session.TrySetResult(session);
            return session;
        }
    }

    private sealed class CountingWsClient(int port, bool callBase) : WsClient(IPAddress.Loopback, port)
    {
        public long Counted;
        public readonly TaskCompletionSource<bool> Bytes = Signal<bool>();
        public readonly TaskCompletionSource<bool> Connected = Signal<bool>();
        public readonly TaskCompletionSource<string> Message = Signal<string>();

        public override void OnWsConnecting(HttpRequest request) => ChatUpgrade(request, WsNonce);

        public override void OnWsConnected(HttpResponse response) => Connected.TrySetResult(true);

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Counted, size);
            Bytes.TrySetResult(true);
            if (callBase)
                base.OnReceived(buffer, offset, size);
        }

        public override void OnWsReceived(byte[] buffer, long offset, long size) => Message.TrySetResult(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
    }

    private sealed class CountingWssClient(SslContext context, int port) : WssClient(context, IPAddress.Loopback, port)
    {
        public long Counted;
        public readonly TaskCompletionSource<string> Message = Signal<string>();

        public override void OnWsConnecting(HttpRequest request) => ChatUpgrade(request, WsNonce);

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Counted, size);
            base.OnReceived(buffer, offset, size);
        }

        public override void OnWsReceived(byte[] buffer, long offset, long size) => Message.TrySetResult(Encoding.UTF8.GetString(buffer, (int)offset, (int)size));
    }

    private static void ChatUpgrade(HttpRequest request, byte[] nonce)
    {
        request.SetBegin("GET", "/");
        request.SetHeader("Host", "localhost");
        request.SetHeader("Upgrade", "websocket");
        request.SetHeader("Connection", "Upgrade");
        request.SetHeader("Sec-WebSocket-Key", Convert.ToBase64String(nonce));
        request.SetHeader("Sec-WebSocket-Version", "13");
        request.SetBody();
    }

    private static int PortOf(TcpServer server) => ((IPEndPoint)server.Endpoint).Port;

    private static int PortOf(SslServer server) => ((IPEndPoint)server.Endpoint).Port;

    [Test]
    public async Task HttpSessionAndHttpClientOverridesSeeEveryByteAndBaseParses()
    {
        using var server = new CountingHttpServer(callBase: true);
        Assert.That(server.Start(), Is.True);
        using var client = new CountingHttpClient(PortOf(server), callBase: true);

        var response = await Wait.For(client.SendGetRequest("/"), "the response through the client's base.OnReceived");
        var session = await Wait.For(server.Session.Task, "the session");
        await Wait.For(session.Requested.Task, "OnReceivedRequest through the session's base.OnReceived");

        Assert.That(response.Body, Is.EqualTo("hello"));
        Assert.That(Interlocked.Read(ref session.Counted), Is.EqualTo(session.BytesReceived), "the session's override saw every byte on the wire");
        Assert.That(Interlocked.Read(ref client.Counted), Is.EqualTo(client.BytesReceived), "the client's override saw every byte on the wire");
        Assert.That(client.Counted, Is.GreaterThan(0));
    }

    [Test]
    public async Task HttpsSessionAndHttpsClientOverridesSeeEveryByteAndBaseParses()
    {
        using var server = new CountingHttpsServer(SslTestTransport.DefaultServerContext());
        Assert.That(server.Start(), Is.True);
        using var client = new CountingHttpsClient(SslTestTransport.DefaultClientContext(), PortOf(server));

        var response = await Wait.For(client.SendGetRequest("/"), "the response through the client's base.OnReceived");
        var session = await Wait.For(server.Session.Task, "the session");
        await Wait.For(session.Requested.Task, "OnReceivedRequest through the session's base.OnReceived");

        Assert.That(response.Body, Is.EqualTo("hello"));
        Assert.That(Interlocked.Read(ref session.Counted), Is.EqualTo(session.BytesReceived), "the session's override saw every byte");
        Assert.That(Interlocked.Read(ref client.Counted), Is.EqualTo(client.BytesReceived), "the client's override saw every byte");
        Assert.That(client.Counted, Is.GreaterThan(0));
    }

    [Test]
    public async Task WsSessionAndWsClientOverridesSeeEveryByteAndBaseParses()
    {
        using var server = new CountingWsServer(callBase: true);
        Assert.That(server.Start(), Is.True);
        using var client = new CountingWsClient(PortOf(server), callBase: true);

        Assert.That(client.ConnectAsync(), Is.True);
        Assert.That(await Wait.For(client.Message.Task, "the greeting through the client's base.OnReceived"), Is.EqualTo("hi"));
        client.SendTextAsync("ping");
        var session = await Wait.For(server.Session.Task, "the session");
        Assert.That(await Wait.For(session.Message.Task, "the message through the session's base.OnReceived"), Is.EqualTo("ping"));

        Assert.That(Interlocked.Read(ref session.Counted), Is.EqualTo(session.BytesReceived), "the session's override saw the upgrade and the frame");
        Assert.That(Interlocked.Read(ref client.Counted), Is.EqualTo(client.BytesReceived), "the client's override saw the 101 and the frame");
        Assert.That(client.Counted, Is.GreaterThan(0));
    }

    [Test]
    public async Task WssSessionAndWssClientOverridesSeeEveryByteAndBaseParses()
    {
        using var server = new CountingWssServer(SslTestTransport.DefaultServerContext());
        Assert.That(server.Start(), Is.True);
        using var client = new CountingWssClient(SslTestTransport.DefaultClientContext(), PortOf(server));

        Assert.That(client.ConnectAsync(), Is.True);
        Assert.That(await Wait.For(client.Message.Task, "the greeting through the client's base.OnReceived"), Is.EqualTo("hi"));
        client.SendTextAsync("ping");
        var session = await Wait.For(server.Session.Task, "the session");
        Assert.That(await Wait.For(session.Message.Task, "the message through the session's base.OnReceived"), Is.EqualTo("ping"));

        Assert.That(Interlocked.Read(ref session.Counted), Is.EqualTo(session.BytesReceived), "the session's override saw every byte");
        Assert.That(Interlocked.Read(ref client.Counted), Is.EqualTo(client.BytesReceived), "the client's override saw every byte");
    }

    [Test]
    public async Task ThroughAnOverrideARequestSplitAcrossReadsAndTwoPipelinedOnesAreAllAnswered()
    {
        using var server = new CountingHttpServer(callBase: true);
        Assert.That(server.Start(), Is.True);
        using var raw = new System.Net.Sockets.TcpClient { NoDelay = true };
        await raw.ConnectAsync(IPAddress.Loopback, PortOf(server));
        var stream = raw.GetStream();
        var one = "GET /a HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello"u8.ToArray();
        var two = "GET /b HTTP/1.1\r\nHost: localhost\r\n\r\nGET /c HTTP/1.1\r\nHost: localhost\r\n\r\n"u8.ToArray();

        // The first request in three reads: the head cut inside a field, then inside the body.
        var session = (CountingHttpSession?)null;
        foreach (var (start, end) in new[] { (0, 20), (20, one.Length - 2), (one.Length - 2, one.Length) })
        {
            await stream.WriteAsync(one.AsMemory(start, end - start));
            session ??= await Wait.For(server.Session.Task, "the session");
            await Wait.For(session.Reached(end), $"the first {end} bytes in the override");
        }
        await stream.WriteAsync(two);
        var answers = await Wait.For(ReadResponses(stream, 3), "three responses");

        Assert.That(answers, Is.EqualTo(3));
        Assert.That(Interlocked.Read(ref session!.Counted), Is.EqualTo(one.Length + two.Length));
    }

    private static async Task<int> ReadResponses(NetworkStream stream, int expected)
    {
        var text = new StringBuilder();
        var buffer = new byte[4096];
        int count;
        while ((count = Count(text.ToString(), "HTTP/1.1 200")) < expected || !text.ToString().EndsWith("hello", StringComparison.Ordinal))
        {
            var read = await stream.ReadAsync(buffer);
            if (read == 0)
                break;
            text.Append(Encoding.ASCII.GetString(buffer, 0, read));
        }
        return count;
    }

    private static int Count(string text, string what)
    {
        var count = 0;
        for (var at = text.IndexOf(what, StringComparison.Ordinal); at >= 0; at = text.IndexOf(what, at + what.Length, StringComparison.Ordinal))
            count++;
        return count;
    }

    [Test]
    public async Task AnHttpSessionOverrideThatSkipsBaseGetsBytesButNoRequest()
    {
        using var server = new CountingHttpServer(callBase: false);
        Assert.That(server.Start(), Is.True);
        using var raw = new System.Net.Sockets.TcpClient();
        await raw.ConnectAsync(IPAddress.Loopback, PortOf(server));
        var request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"u8.ToArray();
        await raw.GetStream().WriteAsync(request);

        var session = await Wait.For(server.Session.Task, "the session");
        await Wait.For(session.Bytes.Task, "the raw bytes in the override");
        await Task.Delay(200);

        Assert.That(session.Requested.Task.IsCompleted, Is.False, "nothing parsed the request");
        Assert.That(Interlocked.Read(ref session.Counted), Is.EqualTo(request.Length));
    }

    [Test]
    public async Task AnHttpClientOverrideThatSkipsBaseGetsBytesButNoResponse()
    {
        using var server = new CountingHttpServer(callBase: true);
        Assert.That(server.Start(), Is.True);
        using var client = new CountingHttpClient(PortOf(server), callBase: false);

        _ = client.SendGetRequest("/", TimeSpan.FromSeconds(30));
        await Wait.For(client.Bytes.Task, "the raw response bytes in the override");
        await Task.Delay(200);

        Assert.That(client.Answered.Task.IsCompleted, Is.False, "nothing parsed the response");
    }

    [Test]
    public async Task WsOverridesThatSkipBaseGetBytesButNoUpgrade()
    {
        using var server = new CountingWsServer(callBase: false);
        Assert.That(server.Start(), Is.True);
        using var client = new CountingWsClient(PortOf(server), callBase: true);

        Assert.That(client.ConnectAsync(), Is.True);
        var session = await Wait.For(server.Session.Task, "the session");
        await Wait.For(session.Bytes.Task, "the upgrade request's bytes in the session's override");
        await Task.Delay(200);

        Assert.That(session.Connected.Task.IsCompleted, Is.False, "the session parsed no upgrade");
        Assert.That(client.Connected.Task.IsCompleted, Is.False, "so the client got no 101");
    }

    [Test]
    public async Task AWsClientOverrideThatSkipsBaseGetsTheUpgradeBytesButNoUpgrade()
    {
        using var server = new CountingWsServer(callBase: true);
        Assert.That(server.Start(), Is.True);
        using var client = new CountingWsClient(PortOf(server), callBase: false);

        Assert.That(client.ConnectAsync(), Is.True);
        var session = await Wait.For(server.Session.Task, "the session");
        await Wait.For(session.Connected.Task, "the server's side of the upgrade");
        await Wait.For(client.Bytes.Task, "the 101 in the client's override");
        await Task.Delay(200);

        Assert.That(client.Connected.Task.IsCompleted, Is.False, "the client parsed no 101");
        Assert.That(client.Message.Task.IsCompleted, Is.False, "nor the greeting");
    }
}
