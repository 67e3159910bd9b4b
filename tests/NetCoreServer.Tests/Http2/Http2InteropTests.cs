using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Tests.Http;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// h2c with prior knowledge against clients nobody here wrote: curl (libcurl over nghttp2), nghttp and h2load
/// (Debian's nghttp2-client), each talking to an <see cref="HttpServer"/> whose session is plain HTTP/1.1-style code.
/// </summary>
[TestFixture]
// Alone: h2load, curl and node move hundreds of megabytes through the process in seconds, which the tests that
// measure the process's memory (HttpMemoryTests, HttpStreamedBodyTests) would count as their own.
[NonParallelizable]
public sealed class Http2InteropTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    private Http2TestServer _server = null!;

    [SetUp]
    public void StartServer()
    {
        _server = new Http2TestServer();
        _server.Start();
    }

    [TearDown]
    public void StopServer() => _server.Dispose();

    private string Url(string path) => $"http://127.0.0.1:{((IPEndPoint)_server.Endpoint).Port}{path}";

    [Test]
    public async Task CurlWithPriorKnowledgeGetsAnHttp2Response()
    {
        var curl = ExternalTool.Require("curl");
        var result = await ExternalTool.Run(curl, ["-sS", "-i", "--http2-prior-knowledge", Url("/hello")], s_timeout);

        Assert.That(result.ExitCode, Is.EqualTo(0), result.ToString());
        Assert.That(result.Output, Does.StartWith("HTTP/2 200"), result.ToString());
        Assert.That(result.Output, Does.EndWith("Hello, World!"));
        Assert.That(_server.Seen, Is.EqualTo(new[] { "GET /hello" }));
    }

    [Test]
    public async Task CurlUploadsAndDownloadsBodiesLargerThanTheWindows()
    {
        var curl = ExternalTool.Require("curl");
        var upload = Path.GetTempFileName();
        var download = Path.GetTempFileName();
        try
        {
            var body = new byte[5 * 1024 * 1024];
            new Random(9113).NextBytes(body);
            await File.WriteAllBytesAsync(upload, body);
            var posted = await ExternalTool.Run(curl, ["-sS", "--http2-prior-knowledge", "--data-binary", "@" + upload, "-o", download, "-w", "%{http_version} %{http_code}", Url("/echo")], s_timeout);
            Assert.That(posted.ExitCode, Is.EqualTo(0), posted.ToString());
            Assert.That(posted.Output, Is.EqualTo("2 200"));
            Assert.That(await File.ReadAllBytesAsync(download), Is.EqualTo(body), "the 5 MiB body came back whole");

            var fetched = await ExternalTool.Run(curl, ["-sS", "--http2-prior-knowledge", "-o", download, "-w", "%{http_version} %{size_download}", Url("/big/3000000")], s_timeout);
            Assert.That(fetched.Output, Is.EqualTo("2 3000000"), fetched.ToString());
            var bytes = await File.ReadAllBytesAsync(download);
            Assert.That(bytes.Select((b, i) => b == Http2TestServer.At(i)).All(x => x), Is.True);
        }
        finally
        {
            File.Delete(upload);
            File.Delete(download);
        }
    }

    [Test]
    public async Task CurlOverAUnixSocketFileSpeaksHttp2()
    {
        var curl = ExternalTool.Require("curl");
        var path = Path.Combine(Path.GetTempPath(), "h2c-" + Guid.NewGuid().ToString("N")[..12] + ".sock");
        using var server = new Http2TestServer(new UnixDomainSocketEndPoint(path));
        server.Start();
        var result = await ExternalTool.Run(curl, ["-sS", "--unix-socket", path, "--http2-prior-knowledge", "-w", " %{http_version}", "http://localhost/hello"], s_timeout);
        Assert.That(result.Output, Is.EqualTo("Hello, World! 2"), result.ToString());
    }

    [Test]
    public async Task NghttpMultiplexesRequestsOnOneConnection()
    {
        var nghttp = ExternalTool.Require("nghttp");
        var paths = new[] { "/hello", "/big/100000", "/headers?x=1", "/declared/20", "/missing" };
        var result = await ExternalTool.Run(nghttp, ["-v", "-n", "-H", "x-trace: abc", .. paths.Select(Url)], s_timeout);

        Assert.That(result.ExitCode, Is.EqualTo(0), result.ToString());
        Assert.That(result.Output.Split('\n').Count(l => l.Contains(":status: 200", StringComparison.Ordinal)), Is.EqualTo(4), result.Output);
        Assert.That(result.Output, Does.Contain(":status: 404"));
        Assert.That(result.Output, Does.Contain("recv GOAWAY").Or.Contain("send GOAWAY"), "nghttp ends the session cleanly");
        Assert.That(_server.Seen.OrderBy(s => s), Is.EqualTo(paths.Select(p => "GET " + p).OrderBy(s => s)));
        Assert.That(_server.Overlapped, Is.False);
    }

    [Test]
    public async Task H2loadGetsEveryRequestAnswered()
    {
        var h2load = ExternalTool.Require("h2load");
        var result = await ExternalTool.Run(h2load, ["-n", "4000", "-c", "4", "-m", "10", Url("/hello")], s_timeout);

        Assert.That(result.ExitCode, Is.EqualTo(0), result.ToString());
        Assert.That(result.Output, Does.Contain("4000 succeeded, 0 failed, 0 errored"), result.Output);
        Assert.That(result.Output, Does.Contain("status codes: 4000 2xx"), result.Output);
        Assert.That(result.Output, Does.Contain("Application protocol: h2c"));
    }

    [Test]
    public async Task CurlGetsStaticFilesRangesAndStreamedBodiesOverHttp2()
    {
        var curl = ExternalTool.Require("curl");
        using var tree = new TempTree();
        tree.Write("index.html", "<html>index</html>");
        var big = new byte[2 * 1024 * 1024];
        new Random(7541).NextBytes(big);
        tree.WriteBytes("big.bin", big);
        // A cache too small for big.bin: it is streamed from the disk (the HTTP/1.1 path's StaticStream) over HTTP/2.
        using var server = HttpTestTransport.Http.Start(new CacheApi(), out var port, staticContent: tree.Www, cache: cache => cache.MaxTotalSize = 64 * 1024);
        var download = Path.GetTempFileName();
        try
        {
            async Task<byte[]> Get(string path, params string[] extra)
            {
                var result = await ExternalTool.Run(curl, ["-sS", "--http2-prior-knowledge", "-o", download, "-w", "%{http_version} %{http_code}", .. extra, $"http://127.0.0.1:{port}{path}"], s_timeout);
                Assert.That(result.Output, Does.StartWith("2 2"), path + ": " + result);
                return await File.ReadAllBytesAsync(download);
            }

            Assert.That(System.Text.Encoding.ASCII.GetString(await Get("/static/index.html")), Is.EqualTo("<html>index</html>"));
            Assert.That(await Get("/static/big.bin"), Is.EqualTo(big), "a file too large to cache, streamed");
            Assert.That(await Get("/static/big.bin", "-r", "1000-1999"), Is.EqualTo(big[1000..2000]), "a range of it");
            var produced = await Get("/stream/produced-3000000");
            Assert.That(produced.Length, Is.EqualTo(3_000_000));
            Assert.That(produced.Select((b, i) => b == ProducerStream.At(i)).All(x => x), Is.True, "a body of unknown length from a producer");
        }
        finally
        {
            File.Delete(download);
        }
    }

    // Node's built-in http2 client: 20 requests at once on one session (GETs and POSTs with bodies), one line per answer.
    private const string NodeClient = """
        const http2 = require('http2');
        const session = http2.connect(process.argv[1], { rejectUnauthorized: false });
        session.on('error', e => { console.error(e); process.exit(2); });
        const one = i => new Promise((resolve, reject) => {
            const post = i % 2 === 1;
            const req = session.request({ ':method': post ? 'POST' : 'GET', ':path': post ? '/echo' : '/hello', 'x-index': String(i) });
            let body = '';
            let status = 0;
            req.setEncoding('utf8');
            req.on('response', headers => { status = headers[':status']; });
            req.on('data', chunk => { body += chunk; });
            req.on('end', () => resolve(`${i} ${status} ${body.length > 20 ? body.length : body}`));
            req.on('error', reject);
            req.end(post ? 'x'.repeat(100000 + i) : undefined);
        });
        Promise.all([...Array(20).keys()].map(one)).then(lines => { console.log(lines.join('\n')); session.close(); })
            .catch(e => { console.error(e); process.exit(3); });
        """;

    [Test]
    public async Task NodesHttp2ClientRunsTwentyRequestsAtOnceOnOneSession()
    {
        var node = ExternalTool.Require("node");
        var result = await ExternalTool.Run(node, ["-e", NodeClient, Url("")], s_timeout);

        Assert.That(result.ExitCode, Is.EqualTo(0), result.ToString());
        var lines = result.Output.Trim().Split('\n');
        Assert.That(lines, Has.Length.EqualTo(20));
        for (var i = 0; i < 20; i++)
            Assert.That(lines[i], Is.EqualTo(i % 2 == 1 ? $"{i} 200 {100000 + i}" : $"{i} 200 Hello, World!"));
        Assert.That(_server.Overlapped, Is.False);
    }
}

