using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>Our HTTP and HTTPS servers against clients nobody here wrote (curl, wrk, h2load) and raw bytes on a socket.</summary>
[TestFixtureSource(nameof(Transports))]
public sealed class HttpServerTests
{
    private readonly HttpTestTransport _transport;
    private PemFiles? _pem;
    private string _authority = "";

    public HttpServerTests(HttpTestTransport transport) => _transport = transport;

    public static readonly object[] Transports = { HttpTestTransport.Http, HttpTestTransport.Https, HttpTestTransport.HttpPool, HttpTestTransport.HttpsPool };

    private bool Secure => _transport.Secure;

    [OneTimeSetUp]
    public void WriteAuthority()
    {
        _pem = new PemFiles();
        _authority = _pem.Write("ca", SslTestTransport.Authority);
    }

    [OneTimeTearDown]
    public void RemoveAuthority() => _pem?.Dispose();

    private string Url(int port, string path) => $"{_transport.Scheme}://localhost:{port}{path}";

    /// <summary>
    /// curl with the test CA trusted and localhost pinned to 127.0.0.1 (-sS: quiet but errors shown). Each
    /// <c>--next</c> starts a new request whose options curl resets, so they are given again after it.
    /// </summary>
    private async Task<ToolResult> Curl(int port, params string[] arguments)
    {
        var curl = ExternalTool.Require("curl");
        var common = new List<string> { "-sS", "--max-time", "20", "--resolve", $"localhost:{port}:127.0.0.1" };
        if (Secure)
            common.AddRange(new[] { "--cacert", _authority });
        var all = new List<string>(common);
        foreach (var argument in arguments)
        {
            all.Add(argument);
            if (argument == "--next")
                all.AddRange(common);
        }
        return await ExternalTool.Run(curl, all, TimeSpan.FromSeconds(30));
    }

    [Test]
    public async Task CurlGetsPostsPutsDeletesAndHeadsThroughTheCacheApi()
    {
        var api = new CacheApi();
        using var server = _transport.Start(api, out var port);

        var missing = await Curl(port, "-o", "/dev/null", "-w", "%{http_code}", Url(port, "/api/cache?key=a"));
        Assert.That(missing.Output, Is.EqualTo("404"), missing.Error);
        var post = await Curl(port, "-X", "POST", "--data-binary", "first value", "-w", "%{http_code}", Url(port, "/api/cache?key=a"));
        Assert.That(post.Output, Is.EqualTo("200"), post.Error);
        var get = await Curl(port, Url(port, "/api/cache?key=a"));
        Assert.That(get.Output, Is.EqualTo("first value"), get.Error);
        var put = await Curl(port, "-X", "PUT", "--data-binary", "second", "-w", "%{http_code}", Url(port, "/api/cache?key=a"));
        Assert.That(put.Output, Is.EqualTo("200"), put.Error);
        var head = await Curl(port, "-I", Url(port, "/api/cache?key=a"));
        Assert.That(head.ExitCode, Is.EqualTo(0), head.Error);
        Assert.That(head.Output, Does.StartWith("HTTP/1.1 200").And.Contain("Content-Length: 6"), "HEAD gets the head of a GET, without its body");
        var delete = await Curl(port, "-X", "DELETE", Url(port, "/api/cache?key=a"));
        Assert.That(delete.Output, Is.EqualTo("second"), delete.Error);
        var gone = await Curl(port, "-o", "/dev/null", "-w", "%{http_code}", Url(port, "/api/cache?key=a"));
        Assert.That(gone.Output, Is.EqualTo("404"));
        Assert.That(api.Errors, Is.Empty);
    }

    [Test]
    public async Task CurlUploadsAChunkedBody()
    {
        var api = new CacheApi();
        using var server = _transport.Start(api, out var port);
        var body = string.Concat(Enumerable.Range(0, 5000).Select(i => (char)('a' + i % 26)));
        using var file = new TemporaryFile(body);

        var upload = await Curl(port, "-X", "POST", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file.Path, "-w", "%{http_code}", Url(port, "/api/cache?key=big"));
        Assert.That(upload.Output, Is.EqualTo("200"), upload.Error);
        var get = await Curl(port, Url(port, "/api/cache?key=big"));
        Assert.That(get.Output, Is.EqualTo(body), "the chunked body arrived whole");
    }

    [Test]
    public async Task CurlReusesOneConnectionForSeveralRequests()
    {
        using var server = _transport.Start(new CacheApi(), out var port);

        var both = await Curl(port, "-v", Url(port, "/fixed"), "--next", Url(port, "/fixed"), "--next", Url(port, "/fixed"));

        Assert.That(both.Output, Is.EqualTo("Hello, World!Hello, World!Hello, World!"), both.Error);
        Assert.That(Regex.Matches(both.Error, "Re-using existing connection").Count, Is.EqualTo(2), "the second and third requests reuse the first connection: " + both.Error);
    }

    [Test]
    public async Task StaticFilesAreServedWithValidatorsAnswered304AndFollowChangesOnDisk()
    {
        var root = Path.Combine(Path.GetTempPath(), "ncs-static-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(root);
        try
        {
            var page = Path.Combine(root, "index.html");
            File.WriteAllText(page, "<h1>first</h1>");
            using var server = _transport.Start(new CacheApi(), out var port, staticContent: root);

            var first = await Curl(port, "-i", Url(port, "/static/index.html"));
            Assert.That(first.Output, Does.StartWith("HTTP/1.1 200").And.EndWith("<h1>first</h1>"), first.Error);
            Assert.That(first.Output, Does.Contain("Content-Type: text/html"));
            var etag = Regex.Match(first.Output, "ETag: (\\S+)").Groups[1].Value;
            Assert.That(etag, Is.Not.Empty, "the response carries an ETag");
            Assert.That(first.Output, Does.Contain("Last-Modified: "));

            var again = await Curl(port, "-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: " + etag, Url(port, "/static/index.html"));
            Assert.That(again.Output, Is.EqualTo("304"), "a current copy is answered 304");

            File.WriteAllText(page, "<h1>second, longer</h1>");
            var changed = await Curl(port, "-H", "If-None-Match: " + etag, Url(port, "/static/index.html"));
            Assert.That(changed.Output, Is.EqualTo("<h1>second, longer</h1>"), "a change on disk is served at once, with a new ETag");

            var escape = await Curl(port, "--path-as-is", "-o", "/dev/null", "-w", "%{http_code}", Url(port, "/static/..%2f..%2fetc%2fpasswd"));
            Assert.That(escape.Output, Is.EqualTo("400"), "a path leaving the served directory is refused");
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [TestCase("produced-52428800", false)]
    [TestCase("fixed-3000000", true)]
    public async Task AStreamedBodyReachesCurlWholeWithoutBeingHeldInMemory(string name, bool knownLength)
    {
        using var server = _transport.Start(new CacheApi(), out var port);
        Interlocked.Exchange(ref ProducerStream.LargestPending, 0);
        using var file = new TemporaryFile("");

        var run = await Curl(port, "-D", "-", "-o", file.Path, Url(port, "/stream/" + name));

        Assert.That(run.ExitCode, Is.EqualTo(0), run.Error);
        Assert.That(run.Output, Does.Contain(knownLength ? "Content-Length: 3000000" : "Transfer-Encoding: chunked"), run.Output);
        var received = File.ReadAllBytes(file.Path);
        var expected = long.Parse(name[(name.LastIndexOf('-') + 1)..]);
        Assert.That(received.LongLength, Is.EqualTo(expected), "every byte arrived");
        for (var i = 0; i < received.Length; i += 4093)
            Assert.That(received[i], Is.EqualTo(ProducerStream.At(i)), $"byte {i}");
        if (!knownLength)
            Assert.That(ProducerStream.LargestPending, Is.LessThan(4L * 1024 * 1024), "the producer ran only while little waited in the send queue (50 MiB streamed)");
    }

    [Test]
    public async Task WrkWithOneHundredConnectionsSeesNoSocketErrors()
    {
        var wrk = ExternalTool.Require("wrk");
        using var server = _transport.Start(new CacheApi(), out var port);

        // 4 s: on a starved machine (load 36 beside the suite) a hundred TLS handshakes alone took a 2-second run.
        var run = await ExternalTool.Run(wrk, new[] { "-t1", "-c100", "-d4s", "--timeout", "4s", $"{_transport.Scheme}://127.0.0.1:{port}/fixed" }, TimeSpan.FromSeconds(30));

        Assert.That(run.ExitCode, Is.EqualTo(0), run.Error);
        Assert.That(run.Output, Does.Not.Contain("Socket errors"), run.Output);
        Assert.That(run.Output, Does.Not.Contain("Non-2xx"), run.Output);
        var requests = Regex.Match(run.Output, @"(\d+) requests in");
        Assert.That(requests.Success && long.Parse(requests.Groups[1].Value) > 100, Is.True, run.Output);
    }

    [Test]
    public async Task H2loadPipeliningTenRequestsPerConnectionGetsEveryAnswer()
    {
        var h2load = ExternalTool.Require("h2load");
        using var server = _transport.Start(new CacheApi(), out var port);

        var run = await ExternalTool.Run(h2load, new[] { "--h1", "-n", "2000", "-c", "10", "-m", "10", $"{_transport.Scheme}://127.0.0.1:{port}/fixed" }, TimeSpan.FromSeconds(60));

        Assert.That(run.ExitCode, Is.EqualTo(0), run.Output + run.Error);
        Assert.That(run.Output, Does.Contain("2000 succeeded, 0 failed, 0 errored"), run.Output);
        Assert.That(run.Output, Does.Contain("status codes: 2000 2xx"), run.Output);
    }

    [Test]
    public async Task HttpClientExSendsSeveralRequestsInARowOnOneConnection()
    {
        using var server = _transport.Start(new CacheApi(), out var port);
        using var client = _transport.CreateClient(port);

        var post = await Wait.For(client.Post("/api/cache?key=k", "v1", null), "POST answered");
        Assert.That(post.Status, Is.EqualTo(200));
        for (var i = 0; i < 20; i++)
        {
            var get = await Wait.For(client.Get("/api/cache?key=k", null), $"GET {i} answered");
            Assert.That(get.Status, Is.EqualTo(200));
            Assert.That(get.Body, Is.EqualTo("v1"));
        }
        var head = await Wait.For(client.Head("/api/cache?key=k", null), "HEAD answered");
        Assert.That(head.Status, Is.EqualTo(200));
        Assert.That(head.BodyLength, Is.EqualTo(0), "a HEAD response has no body, whatever its Content-Length");
        var after = await Wait.For(client.Get("/fixed", null), "GET after HEAD answered");
        Assert.That(after.Body, Is.EqualTo("Hello, World!"), "the connection's framing survived the HEAD");
    }

    internal static int FreePort() => LoopbackPorts.Free();

    internal static async Task<Socket> Connect(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, port);
        return socket;
    }

    /// <summary>Sends the bytes and reads until the server closes (bounded by the default wait).</summary>
    internal static async Task<string> Exchange(Socket socket, string request)
    {
        await socket.SendAsync(Encoding.ASCII.GetBytes(request));
        return await ReadToEnd(socket);
    }

    internal static async Task<string> ReadToEnd(Socket socket)
    {
        var received = new MemoryStream();
        var buffer = new byte[65536];
        while (true)
        {
            int n;
            try
            {
                n = await Wait.For(socket.ReceiveAsync(buffer.AsMemory()).AsTask(), "the server's answer and close");
            }
            catch (SocketException)
            {
                break;
            }
            if (n == 0)
                break;
            received.Write(buffer, 0, n);
        }
        return Encoding.ASCII.GetString(received.ToArray());
    }

    private sealed class TemporaryFile : IDisposable
    {
        public TemporaryFile(string content)
        {
            Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "ncs-http-" + Guid.NewGuid().ToString("N"));
            File.WriteAllText(Path, content);
        }

        public string Path { get; }

        public void Dispose() => File.Delete(Path);
    }
}
