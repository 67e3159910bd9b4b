using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// HttpServer and HttpsServer listening on a Unix domain socket file, driven by curl's <c>--unix-socket</c> and by our
/// HttpClientEx, and the socket file's life: removed on Stop, a stale one replaced, a live one left alone.
/// </summary>
[TestFixture]
public sealed class HttpUnixSocketTests
{
    private PemFiles? _pem;
    private string _authority = "";

    [OneTimeSetUp]
    public void WriteAuthority()
    {
        _pem = new PemFiles();
        _authority = _pem.Write("ca", SslTestTransport.Authority);
    }

    [OneTimeTearDown]
    public void RemoveAuthority() => _pem?.Dispose();

    /// <summary>curl through the socket file at <paramref name="path"/>; the URL's host only names the Host field.</summary>
    private async Task<ToolResult> Curl(string path, params string[] arguments)
    {
        var curl = ExternalTool.Require("curl");
        var all = new List<string> { "-sS", "--max-time", "20", "--unix-socket", path, "--cacert", _authority };
        all.AddRange(arguments);
        return await ExternalTool.Run(curl, all, TimeSpan.FromSeconds(30));
    }

    private static UnixHttpServer StartHttp(string path, CacheApi api, string? staticContent = null)
    {
        var server = new UnixHttpServer(new UnixDomainSocketEndPoint(path), api);
        if (staticContent != null)
            server.AddStaticContent(staticContent, "/static");
        Assert.That(server.Start(), Is.True, "the HttpServer starts on the socket file");
        return server;
    }

    [Test]
    public async Task CurlGetsAHandlersBodyAndAStaticFileThroughTheSocketFile()
    {
        var root = Path.Combine(Path.GetTempPath(), "ncs-static-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(root);
        try
        {
            var bytes = new byte[70000];
            for (var i = 0; i < bytes.Length; i++)
                bytes[i] = (byte)(i * 7 + (i >> 9));
            File.WriteAllBytes(Path.Combine(root, "data.bin"), bytes);
            var path = UdsTestTransport.NewPath();
            var api = new CacheApi();
            using var server = StartHttp(path, api, root);

            var handler = await Curl(path, "-w", " %{http_code}", "http://localhost/fixed");
            Assert.That(handler.Output, Is.EqualTo("Hello, World! 200"), handler.Error);

            using var file = new TemporaryDownload();
            var download = await Curl(path, "-o", file.Path, "-w", "%{http_code} %{content_type}", "http://localhost/static/data.bin");
            Assert.That(download.Output, Is.EqualTo("200 application/octet-stream"), download.Error);
            Assert.That(File.ReadAllBytes(file.Path), Is.EqualTo(bytes), "every byte of the static file arrived");
            Assert.That(api.Urls, Does.Contain("GET /fixed"), "the handler saw curl's request");
            Assert.That(api.Errors, Is.Empty);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [Test]
    public async Task CurlPostsABodyThroughTheSocketFileAndGetsItBack()
    {
        var path = UdsTestTransport.NewPath();
        var api = new CacheApi();
        using var server = StartHttp(path, api);
        var body = string.Concat(System.Linq.Enumerable.Repeat("posted over a socket file; ", 400));

        var post = await Curl(path, "-X", "POST", "--data-binary", body, "-o", "/dev/null", "-w", "%{http_code}", "http://localhost/api/cache?key=uds");
        Assert.That(post.Output, Is.EqualTo("200"), post.Error);
        var get = await Curl(path, "http://localhost/api/cache?key=uds");

        Assert.That(get.Output, Is.EqualTo(body), get.Error);
        Assert.That(api.Errors, Is.Empty);
    }

    [Test]
    public async Task CurlGetsABodyFromAnHttpsServerOnASocketFile()
    {
        var path = UdsTestTransport.NewPath();
        using var server = new UnixHttpsServer(SslTestTransport.DefaultServerContext(), new UnixDomainSocketEndPoint(path), new CacheApi());
        Assert.That(server.Start(), Is.True, "the HttpsServer starts on the socket file");

        var get = await Curl(path, "-w", " %{http_code}", "https://localhost/fixed");

        Assert.That(get.Output, Is.EqualTo("Hello, World! 200"), get.Error);
    }

    [Test]
    public async Task HttpClientExGetsAndPostsThroughTheSocketFile()
    {
        var path = UdsTestTransport.NewPath();
        var api = new CacheApi();
        using var server = StartHttp(path, api);
        using var client = new HttpClientEx(new UnixDomainSocketEndPoint(path));

        var post = await client.SendPostRequest("/api/cache?key=ex", "from our client", TimeSpan.FromSeconds(20));
        Assert.That(post.Status, Is.EqualTo(200));
        var get = await client.SendGetRequest("/api/cache?key=ex", TimeSpan.FromSeconds(20));

        Assert.That(get.Status, Is.EqualTo(200));
        Assert.That(get.Body, Is.EqualTo("from our client"));
        Assert.That(client.Address, Is.EqualTo(path));
        Assert.That(client.Port, Is.Zero);
    }

    [Test]
    public async Task HttpsClientExGetsAndPostsThroughTheSocketFile()
    {
        var path = UdsTestTransport.NewPath();
        var api = new CacheApi();
        using var server = new UnixHttpsServer(SslTestTransport.DefaultServerContext(), new UnixDomainSocketEndPoint(path), api);
        Assert.That(server.Start(), Is.True);
        using var client = new HttpsClientEx(SslTestTransport.DefaultClientContext(), new UnixDomainSocketEndPoint(path));

        var post = await client.SendPostRequest("/api/cache?key=tls", "over TLS", TimeSpan.FromSeconds(20));
        Assert.That(post.Status, Is.EqualTo(200));
        var get = await client.SendGetRequest("/api/cache?key=tls", TimeSpan.FromSeconds(20));
        Assert.That((get.Status, get.Body), Is.EqualTo((200, "over TLS")), "the certificate was checked for localhost and the request served");
    }

    [Test]
    public async Task StopRemovesTheSocketFileAndStartingAgainOnThePathServes()
    {
        var path = UdsTestTransport.NewPath();
        using var server = StartHttp(path, new CacheApi());
        Assert.That(File.Exists(path), Is.True, "Start made the socket file");
        Assert.That(server.Address, Is.EqualTo(path), "Address is the path");
        Assert.That(server.Port, Is.Zero);

        Assert.That(server.Stop(), Is.True);
        Assert.That(File.Exists(path), Is.False, "Stop removed the socket file");

        Assert.That(server.Start(), Is.True, "the same server starts again on the path");
        var first = await Curl(path, "http://localhost/fixed");
        Assert.That(first.Output, Is.EqualTo("Hello, World!"), first.Error);
        server.Stop();
        using var another = StartHttp(path, new CacheApi());
        var second = await Curl(path, "http://localhost/fixed");
        Assert.That(second.Output, Is.EqualTo("Hello, World!"), "another server serves on the path once the first stopped: " + second.Error);
    }

    [Test]
    public async Task TcpOptionsAreNotAppliedToASocketFileAndTheServerStillServes()
    {
        var path = UdsTestTransport.NewPath();
        using var server = new UnixHttpServer(new UnixDomainSocketEndPoint(path), new CacheApi())
        {
            OptionNoDelay = true,
            OptionKeepAlive = true,
            OptionTcpKeepAliveTime = 30,
            OptionReuseAddress = true,
            OptionDualMode = true,
        };
        Assert.That(server.Start(), Is.True, "socket options for TCP do not stop a socket file's server");

        var get = await Curl(path, "http://localhost/fixed");

        Assert.That(get.Output, Is.EqualTo("Hello, World!"), get.Error);
    }

    [Test]
    public async Task AStaleSocketFileIsReplacedAndALiveServersFileIsLeftAlone()
    {
        var socat = ExternalTool.Require("socat");
        var path = UdsTestTransport.NewPath();
        // A killed listener leaves what a crashed server leaves: the file and nobody behind it. .NET unlinks the file
        // of its own socket on dispose, so another process plays the crashed server, as in UdsServerTests.
        using (var dead = Process.Start(new ProcessStartInfo(socat, $"UNIX-LISTEN:{path} -") { UseShellExecute = false, RedirectStandardInput = true })!)
        {
            for (var i = 0; i < 100 && !File.Exists(path); i++)
                Thread.Sleep(20);
            dead.Kill();
            dead.WaitForExit(5000);
        }
        Assert.That(File.Exists(path), Is.True, "stale file present");

        using var server = StartHttp(path, new CacheApi());
        var get = await Curl(path, "http://localhost/fixed");
        Assert.That(get.Output, Is.EqualTo("Hello, World!"), get.Error);

        using var second = new UnixHttpServer(new UnixDomainSocketEndPoint(path), new CacheApi());
        var error = Assert.Throws<SocketException>(() => second.Start());
        Assert.That(error!.SocketErrorCode, Is.EqualTo(SocketError.AddressAlreadyInUse), "a live server's path is refused");
        var still = await Curl(path, "http://localhost/fixed");
        Assert.That(still.Output, Is.EqualTo("Hello, World!"), "the live server still answers: " + still.Error);
    }

    /// <summary>A file name for curl to write into, removed afterwards.</summary>
    private sealed class TemporaryDownload : IDisposable
    {
        public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "ncs-download-" + Guid.NewGuid().ToString("N"));

        public void Dispose() => File.Delete(Path);
    }

    private sealed class UnixHttpServer(UnixDomainSocketEndPoint endpoint, CacheApi api) : HttpServer(endpoint)
    {
        protected override TcpSession CreateSession() => new Session(this, api);

        private sealed class Session(HttpServer server, CacheApi api) : HttpSession(server)
        {
            protected override void OnReceivedRequest(HttpRequest request) => api.Handle(request, Response, SendResponseAsync);

            protected override void OnReceivedRequestError(HttpRequest request, string error) => api.Errors.Enqueue(error);
        }
    }

    private sealed class UnixHttpsServer(SslContext context, UnixDomainSocketEndPoint endpoint, CacheApi api) : HttpsServer(context, endpoint)
    {
        protected override SslSession CreateSession() => new Session(this, api);

        private sealed class Session(HttpsServer server, CacheApi api) : HttpsSession(server)
        {
            protected override void OnReceivedRequest(HttpRequest request) => api.Handle(request, Response, SendResponseAsync);
        }
    }
}
