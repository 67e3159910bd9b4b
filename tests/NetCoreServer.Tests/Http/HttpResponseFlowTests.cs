using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;
using System.Collections.Generic;
using System.Linq;
using System.Net.Security;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;
using static NetCoreServer.Tests.Http.HttpServerTests;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Responses are never lost nor reordered, whatever their size against the send limit and however slowly the client
/// reads; a request whose body stalls or that nobody answers does not hold a connection forever; HTTP/1.1 requires
/// one valid Host. Raw sockets on loopback against a real server.
/// </summary>
[TestFixture]
public sealed class HttpResponseFlowTests
{
    private const int MiB = 1024 * 1024;

    /// <summary>A server whose sessions answer through a delegate and count what they were asked.</summary>
    private sealed class FlowServer : HttpServer
    {
        public FlowServer(Action<FlowSession, HttpRequest>? handle)
            : base(IPAddress.Loopback, 0)
            => Handle = handle;

        public Action<FlowSession, HttpRequest>? Handle { get; }

        public int Dispatched;

        public ConcurrentQueue<SocketError> Errors { get; } = new();

        /// <summary>Completed with the time the first session began to disconnect.</summary>
        public TaskCompletionSource<DateTime> Disconnecting { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        /// <summary>The sessions' OptionSendBufferLimit; 0 keeps the default.</summary>
        public int SendLimit { get; set; }

        /// <summary>Sessions override OnReceived (counting the raw bytes, then base), as NetCoreServer users do.</summary>
        public bool OverrideReceived { get; set; }

        public long RawBytes;

        protected override TcpSession CreateSession() => OverrideReceived ? new CountingSession(this) : new FlowSession(this);
    }

    private sealed class CountingSession(FlowServer flow) : FlowSession(flow)
    {
        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            Interlocked.Add(ref Flow.RawBytes, size);
            base.OnReceived(buffer, offset, size);
        }
    }

    private class FlowSession(FlowServer server) : HttpSession(server)
    {
        protected FlowServer Flow => server;

        protected override void OnConnecting()
        {
            if (server.SendLimit > 0)
                OptionSendBufferLimit = server.SendLimit;
        }

        protected override void OnReceivedRequest(HttpRequest request)
        {
            Interlocked.Increment(ref server.Dispatched);
            server.Handle?.Invoke(this, request);
        }

        protected override void OnReceivedCachedRequest(HttpRequest request, byte[] content)
        {
            Interlocked.Increment(ref server.Dispatched);
            base.OnReceivedCachedRequest(request, content);
        }

        protected override void OnError(SocketError error) => server.Errors.Enqueue(error);

        protected override void OnDisconnecting() => server.Disconnecting.TrySetResult(DateTime.UtcNow);
    }

    private static FlowServer Start(Action<FlowSession, HttpRequest>? handle, Action<FlowServer>? configure = null)
    {
        var server = new FlowServer(handle);
        configure?.Invoke(server);
        server.Start();
        return server;
    }

    private static byte[] Pattern(int length, int seed)
    {
        var bytes = new byte[length];
        for (var i = 0; i < length; i++)
            bytes[i] = (byte)(i * 7 + seed * 13 + (i >> 10));
        return bytes;
    }

    [Test]
    public async Task AStaticFileLargerThanTheSendLimitArrivesWhole()
    {
        using var tree = new TempTree();
        var content = Pattern(20 * MiB, 1);
        tree.WriteBytes("big.bin", content);
        using var server = Start(null, s => s.AddStaticContent(tree.Www, "/static"));
        using var socket = await Connect(server.BoundPort);

        await socket.SendAsync(Encoding.ASCII.GetBytes("GET /static/big.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
        var answer = await new AnswerReader(socket).Next();

        Assert.That(answer, Is.Not.Null, "a 20 MiB file (over the 16 MiB send limit) was answered");
        Assert.That(answer!.Status, Is.EqualTo(200));
        Assert.That(answer.Body.AsSpan().SequenceEqual(content), Is.True, "the whole file, byte for byte");
    }

    [Test]
    public async Task CurlDownloadsAStaticFileLargerThanTheSendLimit()
    {
        using var tree = new TempTree();
        var path = tree.WriteBytes("big.bin", Pattern(20 * MiB, 3));
        using var server = Start(null, s => s.AddStaticContent(tree.Www, "/static"));

        var curl = await ExternalTool.Run(ExternalTool.Require("curl"), new[] { "-sS", "--max-time", "20", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", $"http://127.0.0.1:{server.BoundPort}/static/big.bin" }, TimeSpan.FromSeconds(30));

        Assert.That(curl.Output, Is.EqualTo($"200 {new FileInfo(path).Length}"), curl.Error);
    }

    [Test]
    public async Task CurlGetsByteRangesOfAStaticFileAnd416PastItsEnd()
    {
        using var tree = new TempTree();
        var content = Pattern(100_000, 5);
        tree.WriteBytes("data.bin", content);
        using var server = Start(null, s => s.AddStaticContent(tree.Www, "/static"));
        var url = $"http://127.0.0.1:{server.BoundPort}/static/data.bin";
        var curl = ExternalTool.Require("curl");
        using var output = new TempTree();

        async Task<(string Status, byte[] Body, string Headers)> Get(params string[] options)
        {
            var body = Path.Combine(output.Www, Guid.NewGuid().ToString("N"));
            var headers = body + ".h";
            var run = await ExternalTool.Run(curl, ["-sS", "--max-time", "20", "-o", body, "-D", headers, "-w", "%{http_code}", .. options, url], TimeSpan.FromSeconds(30));
            Assert.That(run.Error, Is.Empty);
            return (run.Output, File.Exists(body) ? File.ReadAllBytes(body) : [], File.ReadAllText(headers));
        }

        var (status, body, headers) = await Get("-r", "10-19");
        Assert.That(status, Is.EqualTo("206"));
        Assert.That(body, Is.EqualTo(content[10..20]));
        Assert.That(headers, Does.Contain("Content-Range: bytes 10-19/100000"));

        (status, body, _) = await Get("-r", "99990-");
        Assert.That((status, body), Is.EqualTo(("206", content[99990..])));

        (status, body, _) = await Get("-r", "-5");
        Assert.That((status, body), Is.EqualTo(("206", content[^5..])), "the last five bytes");

        (status, _, headers) = await Get("-r", "100000-");
        Assert.That(status, Is.EqualTo("416"));
        Assert.That(headers, Does.Contain("Content-Range: bytes */100000"));

        (status, body, _) = await Get("-r", "0-1,5-6");
        Assert.That((status, body.Length), Is.EqualTo(("200", content.Length)), "several ranges: the whole file");

        (status, body, _) = await Get("-r", "0-9", "-H", "If-Range: \"stale\"");
        Assert.That((status, body.Length), Is.EqualTo(("200", content.Length)), "an If-Range that no longer matches: the whole file");
    }

    [Test]
    public async Task ATraceEchoOfABodyAtTheBodyLimitArrivesWhole()
    {
        using var server = Start((session, request) => session.SendResponseAsync(session.Response.MakeTraceResponse(request)));
        using var socket = await Connect(server.BoundPort);
        var body = Encoding.ASCII.GetBytes(new string('t', 16 * MiB));

        var send = socket.SendAsync(Encoding.ASCII.GetBytes($"TRACE /echo HTTP/1.1\r\nHost: x\r\nContent-Length: {body.Length}\r\n\r\n").Concat(body).ToArray());
        var answer = await new AnswerReader(socket).Next();
        await send;

        Assert.That(answer, Is.Not.Null, "the echo (over the send limit with its heads) was answered");
        Assert.That(answer!.Status, Is.EqualTo(200));
        Assert.That(answer.Body.Length, Is.GreaterThan(16 * MiB), "the request's head and its whole body are echoed");
    }

    [Test]
    public async Task ALargeAnswerFromTheSessionArrivesWholeAndTheNextFollowsIt()
    {
        var json = Encoding.ASCII.GetBytes("[" + string.Join(",", Enumerable.Range(0, 3 * MiB / 8).Select(i => $"{i % 1000000,6}")) + "]");
        using var server = Start((session, request) =>
        {
            if (request.Url == "/big")
                session.SendResponseAsync(session.Response.MakeGetResponse(json, "application/json"));
            else
                session.SendResponseAsync(session.Response.MakeGetResponse("small"));
        }, s => s.SendLimit = MiB);
        using var socket = await Connect(server.BoundPort);

        await socket.SendAsync(Encoding.ASCII.GetBytes("GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /small HTTP/1.1\r\nHost: x\r\n\r\n"));
        var reader = new AnswerReader(socket);
        var big = await reader.Next();
        var small = await reader.Next();

        Assert.That(big?.Body.AsSpan().SequenceEqual(json), Is.True, "the 3 MiB answer (send limit 1 MiB) arrives whole");
        Assert.That(small is { Status: 200 } && Encoding.ASCII.GetString(small.Body) == "small", Is.True, "the next answer follows it");
    }

    [Test]
    public async Task BodyPartsSentAfterAHeadFollowItBehindALargeAnswer()
    {
        var big = Pattern(3 * MiB, 9);
        using var server = Start((session, request) =>
        {
            if (request.Url == "/big")
            {
                session.SendResponseAsync(session.Response.MakeGetResponse(big));
                return;
            }
            session.SendResponseAsync(session.Response.Clear().SetBegin(200).SetBodyLength(10));
            session.SendResponseBodyAsync("01234");
            session.SendResponseBody("56789"u8.ToArray());
        }, s => s.SendLimit = MiB);
        using var socket = await Connect(server.BoundPort);

        await socket.SendAsync(Encoding.ASCII.GetBytes("GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /parts HTTP/1.1\r\nHost: x\r\n\r\n"));
        var reader = new AnswerReader(socket);
        var first = await reader.Next();
        var second = await reader.Next();

        Assert.That(first?.Body.AsSpan().SequenceEqual(big), Is.True, "the large answer comes whole");
        Assert.That(second is { Status: 200 } && Encoding.ASCII.GetString(second.Body) == "0123456789", Is.True, "the body parts follow their head, after the large answer");
    }

    [TestCase(false)]
    [TestCase(true)]
    public async Task PipelinedLargeFilesReadSlowlyAreEachAnsweredWithTheirOwnBodyInOrder(bool overrideReceived)
    {
        using var tree = new TempTree();
        var files = Enumerable.Range(0, 30).Select(i => Pattern(MiB, i + 2)).ToArray();
        for (var i = 0; i < files.Length; i++)
            tree.WriteBytes($"m/f{i}.bin", files[i]);
        var index = Encoding.ASCII.GetBytes("<html>index</html>");
        tree.WriteBytes("index.html", index);
        using var server = Start(null, s =>
        {
            s.AddStaticContent(tree.Www, "/");
            s.OverrideReceived = overrideReceived;
        });
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 64 * 1024 };
        await socket.ConnectAsync(IPAddress.Loopback, server.BoundPort);

        var requests = string.Concat(Enumerable.Range(0, 30).Select(i => $"GET /m/f{i}.bin HTTP/1.1\r\nHost: x\r\n\r\n")) + "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n";
        await socket.SendAsync(Encoding.ASCII.GetBytes(requests));
        await Task.Delay(1000);
        Assert.That(Volatile.Read(ref server.Dispatched), Is.LessThan(31), "parsing stops while the answers wait past the high watermark");

        var reader = new AnswerReader(socket);
        for (var i = 0; i < 30; i++)
        {
            var answer = await reader.Next();
            Assert.That(answer, Is.Not.Null, $"response {i} came");
            Assert.That(answer!.Body.AsSpan().SequenceEqual(files[i]), Is.True, $"response {i} carries /m/f{i}.bin");
        }
        var last = await reader.Next();
        Assert.That(last?.Body.AsSpan().SequenceEqual(index), Is.True, "the last response carries index.html");
        Assert.That(server.Errors, Is.Empty, "no send was refused");
        if (overrideReceived)
            Assert.That(Interlocked.Read(ref server.RawBytes), Is.EqualTo(Encoding.ASCII.GetByteCount(requests)), "the override saw every byte once");
    }

    [Test]
    public async Task AStalledRequestBodyIsClosedByTheMinimumDataRate()
    {
        using var server = Start((session, _) => session.SendResponseAsync(session.Response.MakeOkResponse()), s =>
        {
            s.Http.MinRequestBodyDataRate = 240;
            s.Http.MinRequestBodyDataRateGracePeriod = TimeSpan.FromMilliseconds(500);
        });
        using var socket = await Connect(server.BoundPort);

        var started = Stopwatch.StartNew();
        await socket.SendAsync(Encoding.ASCII.GetBytes("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\nabc"));
        var answer = await ReadToEnd(socket);

        Assert.That(answer, Does.StartWith("HTTP/1.1 408 "), "a body slower than the minimum rate is answered 408 and closed");
        Assert.That(started.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)));
        Assert.That(server.Dispatched, Is.Zero);
    }

    [Test]
    public async Task ABodyThatStopsAfterAFastStartIsClosedWithinTwoWindows()
    {
        using var server = Start((session, _) => session.SendResponseAsync(session.Response.MakeOkResponse()), s =>
        {
            s.Http.MinRequestBodyDataRate = 240;
            s.Http.MinRequestBodyDataRateGracePeriod = TimeSpan.FromMilliseconds(500);
        });
        using var socket = await Connect(server.BoundPort);

        // 1 MiB at once, then nothing: averaged since the head, that passes 240 B/s for more than an hour.
        var head = Encoding.ASCII.GetBytes("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n");
        await socket.SendAsync(head.Concat(Pattern(MiB, 3)).ToArray());
        var stalled = Stopwatch.StartNew();
        var answer = await ReadToEnd(socket);

        Assert.That(answer, Does.StartWith("HTTP/1.1 408 "), "a body that stopped is answered 408 and closed, whatever came before");
        Assert.That(stalled.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)), "timed out within seconds of stopping");
        Assert.That(server.Dispatched, Is.Zero);
    }

    [Test]
    public async Task ABodyIsNotTimedWhileTheServerHoldsBackForItsOwnAnswers()
    {
        // Larger than what the kernel takes for a client that does not read (tcp_wmem's maximum, 4 MiB here) plus the
        // high watermark: the rest waits in the server, which then holds back.
        var big = Pattern(16 * MiB, 5);
        using var server = Start((session, request) =>
        {
            if (request.Url == "/slow")
                _ = Task.Run(async () =>
                {
                    await Task.Delay(200);
                    session.SendResponseAsync(new HttpResponse().MakeGetResponse(big));
                });
            else
                session.SendResponseAsync(session.Response.MakeOkResponse());
        }, s =>
        {
            s.Http.MinRequestBodyDataRate = 240;
            s.Http.MinRequestBodyDataRateGracePeriod = TimeSpan.FromMilliseconds(500);
            s.Http.KeepAliveTimeout = TimeSpan.FromSeconds(3);
        });
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 64 * 1024 };
        await socket.ConnectAsync(IPAddress.Loopback, server.BoundPort);

        // The answer to /slow comes while the upload's body runs, and the client does not read it: the server stops
        // reading, so the body cannot progress. That is not the client's slowness; not reading for the idle timeout is.
        var started = DateTime.UtcNow;
        await socket.SendAsync(Encoding.ASCII.GetBytes("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nPOST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\nabc"));
        var closed = await Wait.For(server.Disconnecting.Task, "the server closing the connection");
        var received = await ReadToEnd(socket);

        Assert.That(closed - started, Is.GreaterThan(TimeSpan.FromSeconds(2.5)), "open until the idle timeout, not closed by the body rate");
        Assert.That(received, Does.StartWith("HTTP/1.1 200 ").And.Not.Contain("HTTP/1.1 408"), "no 408 for a body the server did not read");
    }

    [Test]
    public async Task ARequestNobodyAnswersGets503AndACloseAtTheResponseTimeout()
    {
        using var server = Start(null, s => s.Http.ResponseTimeout = TimeSpan.FromMilliseconds(500));
        using var socket = await Connect(server.BoundPort);

        var started = Stopwatch.StartNew();
        var answer = await Exchange(socket, "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n");

        Assert.That(answer, Does.StartWith("HTTP/1.1 503 ").And.Contain("Connection: close"), "nobody answered: 503, then the connection closed");
        Assert.That(started.Elapsed, Is.LessThan(TimeSpan.FromSeconds(10)));
        Assert.That(server.Dispatched, Is.EqualTo(1));
    }

    [TestCase("GET / HTTP/1.1\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: a b\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: a:b\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: a@b\r\n\r\n")]
    public async Task AnHttp11RequestWithoutOneValidHostGets400AndAClose(string request)
    {
        using var server = Start((session, _) => session.SendResponseAsync(session.Response.MakeOkResponse()), s => s.Http.RequireHost = true);
        using var socket = await Connect(server.BoundPort);

        var answer = await Exchange(socket, request);

        Assert.That(answer, Does.StartWith("HTTP/1.1 400 ").And.Contain("Connection: close"), answer);
        Assert.That(server.Dispatched, Is.Zero);
    }

    [Test]
    public async Task ARequestWithoutHostIsServedByDefault()
    {
        using var server = Start((session, _) => session.SendResponseAsync(session.Response.MakeOkResponse()));

        using (var socket = await Connect(server.BoundPort))
            Assert.That(await Exchange(socket, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n"), Does.StartWith("HTTP/1.1 200 "), "no Host: served");
        using (var socket = await Connect(server.BoundPort))
            Assert.That(await Exchange(socket, "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), Does.StartWith("HTTP/1.1 400 "), "two Host fields: still refused");
    }

    [TestCase("GET / HTTP/1.0\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: example.com:8080\r\nConnection: close\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: [::1]:80\r\nConnection: close\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")]
    [TestCase("GET / HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n")]
    public async Task AnHttp10RequestWithoutHostAndAValidHostAreAnswered(string request)
    {
        using var server = Start((session, _) => session.SendResponseAsync(session.Response.MakeOkResponse()));
        using var socket = await Connect(server.BoundPort);

        var answer = await Exchange(socket, request);

        Assert.That(answer, Does.StartWith("HTTP/1.1 200 "), answer);
    }

    private static IEnumerable<HttpTestTransport> Transports()
        => new[] { HttpTestTransport.Http, HttpTestTransport.HttpPool, HttpTestTransport.Https, HttpTestTransport.HttpsPool };

    [TestCaseSource(nameof(Transports))]
    public async Task PipelinedLargeFilesReadSlowlyKeepTheirOrderOnEveryTransport(HttpTestTransport transport)
    {
        using var tree = new TempTree();
        var files = Enumerable.Range(0, 30).Select(i => Pattern(MiB, i + 40)).ToArray();
        for (var i = 0; i < files.Length; i++)
            tree.WriteBytes($"m/f{i}.bin", files[i]);
        var index = Encoding.ASCII.GetBytes("<html>index</html>");
        tree.WriteBytes("index.html", index);
        using var server = transport.Start(new CacheApi(), out var port, staticContent: tree.Www);
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 64 * 1024 };
        await socket.ConnectAsync(IPAddress.Loopback, port);
        Stream stream = new NetworkStream(socket, ownsSocket: false);
        if (transport.Secure)
        {
            var tls = new SslStream(stream, leaveInnerStreamOpen: false, (_, _, _, _) => true);
            await tls.AuthenticateAsClientAsync("localhost");
            stream = tls;
        }
        await using var _ = stream;

        var requests = string.Concat(Enumerable.Range(0, 30).Select(i => $"GET /static/m/f{i}.bin HTTP/1.1\r\nHost: x\r\n\r\n")) + "GET /static/index.html HTTP/1.1\r\nHost: x\r\n\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(requests));
        await Task.Delay(1000);

        var reader = new AnswerReader(stream);
        for (var i = 0; i < 30; i++)
        {
            var answer = await reader.Next();
            Assert.That(answer?.Body.AsSpan().SequenceEqual(files[i]), Is.True, $"response {i} carries /m/f{i}.bin");
        }
        var last = await reader.Next();
        Assert.That(last?.Body.AsSpan().SequenceEqual(index), Is.True, "the last response carries index.html");
    }
}
