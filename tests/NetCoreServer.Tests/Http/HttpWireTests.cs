using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NUnit.Framework;
using static NetCoreServer.Tests.Http.HttpServerTests;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// What HTTP does on the wire whatever the transport under it, checked over plain HTTP with raw bytes on a socket:
/// HTTP/1.0, pipelining, malformed and smuggling-shaped requests, limits, timeouts, and HttpClientEx's failures.
/// </summary>
[TestFixture]
public sealed class HttpWireTests
{
    private readonly HttpTestTransport _transport = HttpTestTransport.Http;

    private static Task<ToolResult> CurlHttp10(int port)
        => ExternalTool.Run(ExternalTool.Require("curl"), new[] { "-sS", "--max-time", "20", "--http1.0", $"http://127.0.0.1:{port}/fixed" }, TimeSpan.FromSeconds(30));

    [Test]
    public async Task AnHttp10RequestIsAnsweredAndTheConnectionCloses()
    {
        using var server = _transport.Start(new CacheApi(), out var port);
        var curl = await CurlHttp10(port);
        Assert.That(curl.Output, Is.EqualTo("Hello, World!"), curl.Error);

        using var socket = await Connect(port);
        var answer = await Exchange(socket, "GET /fixed HTTP/1.0\r\nHost: x\r\n\r\n");
        Assert.That(answer, Does.StartWith("HTTP/1.1 200 OK").And.EndWith("Hello, World!"), "answered, then closed (the read ended)");
    }

    [Test]
    public async Task PipelinedRequestsAreAnsweredInOrder()
    {
        using var server = _transport.Start(new CacheApi(), out var port);
        using var socket = await Connect(port);

        var requests = string.Concat(
            "POST /api/cache?key=p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\none",
            "GET /api/cache?key=p HTTP/1.1\r\nHost: x\r\n\r\n",
            "HEAD /api/cache?key=p HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /fixed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        var answer = await Exchange(socket, requests);

        var statuses = Regex.Matches(answer, "HTTP/1.1 (\\d+)").Select(m => m.Groups[1].Value).ToArray();
        Assert.That(statuses, Is.EqualTo(new[] { "200", "200", "200", "200" }), answer);
        Assert.That(answer, Does.EndWith("Hello, World!"), "the last answer ends the stream: the connection closed as asked");
        var bodies = answer.Split("HTTP/1.1 ");
        Assert.That(bodies[2], Does.EndWith("one"), "the GET after the POST sees its value");
        Assert.That(bodies[3], Does.EndWith("\r\n\r\n"), "the HEAD answer has no body");
    }

    [TestCase("POST /api/cache?key=x HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n", 413)]
    [TestCase("GARBAGE\r\n\r\n", 400)]
    [TestCase("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400)]
    [TestCase("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400)]
    [TestCase("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400)]
    [TestCase("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501)]
    [TestCase("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505)]
    public async Task AMalformedOrSmugglingShapedRequestGetsItsStatusAndAClose(string request, int status)
    {
        var api = new CacheApi();
        using var server = _transport.Start(api, out var port);
        using var socket = await Connect(port);

        var answer = await Exchange(socket, request);

        Assert.That(answer, Does.StartWith($"HTTP/1.1 {status} "), answer);
        Assert.That(answer, Does.Contain("Connection: close"));
        Assert.That(api.Errors, Has.Count.EqualTo(1), "OnReceivedRequestError ran once");
        Assert.That(api.Urls, Is.Empty, "no request reached OnReceivedRequest");
    }

    [Test]
    public async Task AnOversizedRequestLineGets414AndOversizedHeadersGet431()
    {
        using var server = _transport.Start(new CacheApi(), out var port);

        using (var socket = await Connect(port))
            Assert.That(await Exchange(socket, "GET /" + new string('a', 9000) + " HTTP/1.1\r\nHost: x\r\n\r\n"), Does.StartWith("HTTP/1.1 414 "));
        using (var socket = await Connect(port))
        {
            var headers = string.Concat(Enumerable.Range(0, 200).Select(i => $"X-Header-{i}: {new string('v', 200)}\r\n"));
            Assert.That(await Exchange(socket, "GET / HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n"), Does.StartWith("HTTP/1.1 431 "));
        }
    }

    [Test]
    public async Task ASilentClientIsClosedAfterTheKeepAliveTimeoutAndASlowOneGets408()
    {
        using var server = _transport.Start(new CacheApi(), out var port, options =>
        {
            options.KeepAliveTimeout = TimeSpan.FromMilliseconds(300);
            options.HeaderTimeout = TimeSpan.FromMilliseconds(300);
        });

        using (var silent = await Connect(port))
            Assert.That(await ReadToEnd(silent), Is.Empty, "an idle connection is closed without an answer");
        using (var slow = await Connect(port))
        {
            await slow.SendAsync(Encoding.ASCII.GetBytes("GET /fixed HTTP/1.1\r\nHo"));
            Assert.That(await ReadToEnd(slow), Does.StartWith("HTTP/1.1 408 "), "a head that never completes is answered 408");
        }
    }

    [Test]
    public async Task EachAnswerRestartsTheIdleClockAndABegunHeadRunsOnItsShorterClock()
    {
        using (var server = _transport.Start(new CacheApi(), out var port, options => options.KeepAliveTimeout = TimeSpan.FromMilliseconds(1000)))
        using (var socket = await Connect(port))
        {
            // Five requests 300 ms apart: longer than the idle timeout in all, but never idle that long at once.
            for (var i = 0; i < 5; i++)
            {
                await Task.Delay(300);
                await socket.SendAsync(Encoding.ASCII.GetBytes("GET /fixed HTTP/1.1\r\nHost: x\r\n\r\n"));
                Assert.That(await ReadFixedAnswer(socket), Does.StartWith("HTTP/1.1 200 "), $"request {i} answered on the same connection");
            }
            Assert.That(await ReadToEnd(socket), Is.Empty, "then, silent, it is closed without an answer");
        }

        // The idle clock (30 s) already runs when a head begins: the head's clock (300 ms) still ends it, well before.
        using (var server = _transport.Start(new CacheApi(), out var port, options =>
        {
            options.KeepAliveTimeout = TimeSpan.FromSeconds(30);
            options.HeaderTimeout = TimeSpan.FromMilliseconds(300);
        }))
        using (var socket = await Connect(port))
        {
            await socket.SendAsync(Encoding.ASCII.GetBytes("GET /fixed HTTP/1.1\r\nHost: x\r\n\r\n"));
            Assert.That(await ReadFixedAnswer(socket), Does.StartWith("HTTP/1.1 200 "));
            await socket.SendAsync(Encoding.ASCII.GetBytes("GET /fixed HTTP/1.1\r\nHo"));
            var started = Stopwatch.StartNew();
            Assert.That(await ReadToEnd(socket), Does.StartWith("HTTP/1.1 408 "), "a head that never completes is answered 408");
            Assert.That(started.Elapsed, Is.LessThan(TimeSpan.FromSeconds(15)), "by the head's clock, not the idle one");
        }
    }

    /// <summary>Reads one answer to GET /fixed (its body ends it), bounded by the default wait.</summary>
    private static async Task<string> ReadFixedAnswer(Socket socket)
    {
        var received = new StringBuilder();
        var buffer = new byte[4096];
        for (var reads = 0; reads < 100 && !received.ToString().EndsWith("Hello, World!", StringComparison.Ordinal); reads++)
        {
            var n = await Wait.For(socket.ReceiveAsync(buffer.AsMemory()).AsTask(), "an answer to GET /fixed");
            if (n == 0)
                break;
            received.Append(Encoding.ASCII.GetString(buffer, 0, n));
        }
        return received.ToString();
    }

    [Test]
    public async Task HttpClientExFailsCleanlyOnARefusedConnectionATimeoutAndAMalformedResponse()
    {
        var closedPort = FreePort();
        using (var refused = _transport.CreateClient(closedPort))
            Assert.That(async () => await Wait.For(refused.Get("/", TimeSpan.FromSeconds(5)), "refused connect"), Throws.InstanceOf<IOException>());

        using var silent = new TcpListener(IPAddress.Loopback, 0);
        silent.Start();
        var silentPort = ((IPEndPoint)silent.LocalEndpoint).Port;
        using (var waiting = _transport.CreateClient(silentPort))
            Assert.That(async () => await Wait.For(waiting.Get("/", TimeSpan.FromMilliseconds(500)), "timeout"), Throws.InstanceOf<TimeoutException>());

        using var liar = new TcpListener(IPAddress.Loopback, 0);
        liar.Start();
        var liarPort = ((IPEndPoint)liar.LocalEndpoint).Port;
        var garbage = Task.Run(async () =>
        {
            using var peer = await liar.AcceptSocketAsync();
            var buffer = new byte[4096];
            await peer.ReceiveAsync(buffer);
            await peer.SendAsync(Encoding.ASCII.GetBytes("NOT HTTP AT ALL\r\n\r\n"));
            await Task.Delay(1000);
        });
        using (var malformed = _transport.CreateClient(liarPort))
            Assert.That(async () => await Wait.For(malformed.Get("/", TimeSpan.FromSeconds(5)), "malformed response"), Throws.InstanceOf<InvalidDataException>());
        await garbage;
    }

    [Test]
    public async Task APipelinedRequestAfterAStreamedOneIsAnsweredAfterIt()
    {
        using var server = _transport.Start(new CacheApi(), out var port);
        using var socket = await Connect(port);

        var answer = await Exchange(socket, "GET /stream/produced-200000 HTTP/1.1\r\nHost: x\r\n\r\nGET /fixed HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

        Assert.That(answer, Does.EndWith("Hello, World!"), "the second answer comes whole after the streamed body");
        Assert.That(answer.IndexOf("0\r\n\r\nHTTP/1.1 200", StringComparison.Ordinal), Is.GreaterThan(200000), "the last chunk precedes the next response");
    }
}
