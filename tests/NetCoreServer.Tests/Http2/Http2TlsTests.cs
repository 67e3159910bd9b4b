using System;
using System.Collections.Generic;
using System.Net.Security;
using System.Threading.Tasks;
using NetCoreServer.Tests.Http;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// h2 over TLS on <see cref="HttpsServer"/>, chosen by ALPN when the server's <see cref="SslContext.ApplicationProtocols"/>
/// lists it, against curl, nghttp and h2load; HTTP/1.1 clients of the same server, and servers that do not list h2,
/// keep HTTP/1.1.
/// </summary>
[TestFixture]
// Alone: h2load, curl and node move hundreds of megabytes through the process in seconds, which the tests that
// measure the process's memory (HttpMemoryTests, HttpStreamedBodyTests) would count as their own.
[NonParallelizable]
public sealed class Http2TlsTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    private static IDisposable Start(bool offerH2, out int port, bool priorKnowledge = true)
    {
        var server = HttpTestTransport.Https.Start(new CacheApi(), out port, options => options.Http2Enabled = priorKnowledge);
        if (offerH2)
            ((SslServer)server).Context.ApplicationProtocols = new List<SslApplicationProtocol> { SslApplicationProtocol.Http2, SslApplicationProtocol.Http11 };
        return server;
    }

    private static Task<ToolResult> Curl(string curl, int port, params string[] arguments)
        => ExternalTool.Run(curl, ["-sS", "-k", "-w", " %{http_version}", .. arguments, $"https://127.0.0.1:{port}/fixed"], s_timeout);

    [Test]
    public async Task CurlNegotiatesH2ByAlpnWhenTheServerOffersIt()
    {
        var curl = ExternalTool.Require("curl");
        using var server = Start(offerH2: true, out var port);
        var result = await Curl(curl, port, "--http2");
        Assert.That(result.Output, Is.EqualTo("Hello, World! 2"), result.ToString());

        var old = await Curl(curl, port, "--http1.1");
        Assert.That(old.Output, Is.EqualTo("Hello, World! 1.1"), "an HTTP/1.1 client of the same server: " + old);
    }

    [Test]
    public async Task AlpnChoosesH2BeforeAnyByteEvenWithPriorKnowledgeOff()
    {
        var curl = ExternalTool.Require("curl");
        using var server = Start(offerH2: true, out var port, priorKnowledge: false);
        var result = await Curl(curl, port, "--http2");
        Assert.That(result.Output, Is.EqualTo("Hello, World! 2"), "the context's ALPN list decides over TLS: " + result);
    }

    [Test]
    public async Task ServerThatDoesNotOfferH2StaysOnHttp11()
    {
        var curl = ExternalTool.Require("curl");
        using var server = Start(offerH2: false, out var port);
        var result = await Curl(curl, port, "--http2");
        Assert.That(result.Output, Is.EqualTo("Hello, World! 1.1"), result.ToString());
    }

    [Test]
    public async Task CurlGetsAStaticFileTooLargeToCacheAndARangeOfItOverH2()
    {
        var curl = ExternalTool.Require("curl");
        using var tree = new TempTree();
        var content = new byte[1024 * 1024];
        new Random(9113).NextBytes(content);
        tree.WriteBytes("big.bin", content);
        using var server = HttpTestTransport.Https.Start(new CacheApi(), out var port, staticContent: tree.Www, cache: cache => cache.MaxTotalSize = 64 * 1024);
        ((SslServer)server).Context.ApplicationProtocols = new List<SslApplicationProtocol> { SslApplicationProtocol.Http2, SslApplicationProtocol.Http11 };
        var download = System.IO.Path.GetTempFileName();
        try
        {
            async Task<(string Written, byte[] Body)> Get(params string[] extra)
            {
                var result = await ExternalTool.Run(curl, ["-sS", "-k", "--http2", "-o", download, "-w", "%{http_version} %{http_code} %{content_type}", .. extra, $"https://127.0.0.1:{port}/static/big.bin"], s_timeout);
                Assert.That(result.Error, Is.Empty, result.ToString());
                return (result.Output, await System.IO.File.ReadAllBytesAsync(download));
            }

            var whole = await Get();
            Assert.That(whole.Written, Is.EqualTo("2 200 application/octet-stream"));
            Assert.That(whole.Body, Is.EqualTo(content), "the whole file over h2");
            var part = await Get("-r", "100000-199999");
            Assert.That(part.Written, Does.StartWith("2 206"));
            Assert.That(part.Body, Is.EqualTo(content[100000..200000]), "exactly the range");
        }
        finally
        {
            System.IO.File.Delete(download);
        }
    }

    [Test]
    public async Task H2loadAndNghttpSpeakH2OverTls()
    {
        var h2load = ExternalTool.Require("h2load");
        var nghttp = ExternalTool.Require("nghttp");
        using var server = Start(offerH2: true, out var port);
        var load = await ExternalTool.Run(h2load, ["-n", "2000", "-c", "2", "-m", "10", $"https://127.0.0.1:{port}/fixed"], s_timeout);
        Assert.That(load.Output, Does.Contain("Application protocol: h2"), load.ToString());
        Assert.That(load.Output, Does.Contain("2000 succeeded, 0 failed, 0 errored"), load.Output);

        var fetch = await ExternalTool.Run(nghttp, ["-v", $"https://127.0.0.1:{port}/fixed", $"https://127.0.0.1:{port}/api/cache?key=none"], s_timeout);
        Assert.That(fetch.ExitCode, Is.EqualTo(0), fetch.ToString());
        Assert.That(fetch.Output, Does.Contain(":status: 200").And.Contain(":status: 404").And.Contain("Hello, World!"));
    }
}
