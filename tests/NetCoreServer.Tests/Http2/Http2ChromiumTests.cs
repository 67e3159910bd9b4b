using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Security;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NetCoreServer.Tests.Http;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Headless Chromium (Debian's chromium, no driver) loads a page of 50 resources (stylesheets, scripts, images) from an
/// <see cref="HttpsServer"/> serving static files, and reports through the page's own script the protocol of the page
/// and of every resource, as the Resource Timing API sees it (<c>nextHopProtocol</c>): h2 when the server's ALPN list
/// offers it, http/1.1 when it does not. The browser trusts the test certificate by its public key pin only.
/// </summary>
[TestFixture]
// Alone, as the other peer fixtures of HTTP/2: a browser moves the process's memory that the memory tests count.
[NonParallelizable]
public sealed partial class Http2ChromiumTests
{
    private const int Resources = 50;

    // The browser exits once the page has loaded; this bounds a browser that hangs (it is killed with its children).
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(90);

    // Runs on the load event, when every resource of the page has loaded: the protocols go into the DOM, which
    // --dump-dom prints once the load event's handlers have run.
    private const string Probe = """
        <script>
        addEventListener('load', () => {
            const page = performance.getEntriesByType('navigation')[0];
            const resources = performance.getEntriesByType('resource').map(e => ({ path: new URL(e.name).pathname, protocol: e.nextHopProtocol }));
            document.getElementById('protocols').textContent = JSON.stringify({ page: page.nextHopProtocol, resources });
        });
        </script>
        """;

    [TestCase(true, "h2", TestName = "Chromium loads a page of 50 resources over h2 when the server offers it by ALPN")]
    [TestCase(false, "http/1.1", TestName = "Chromium loads the same page over HTTP/1.1 when the server does not offer h2")]
    public async Task ChromiumLoadsEveryResourceOverTheNegotiatedProtocol(bool offerH2, string expected)
    {
        var chromium = ExternalTool.Require("chromium");
        using var tree = new TempTree();
        var paths = WritePage(tree);
        using var server = HttpTestTransport.Https.Start(new CacheApi(), out var port, staticContent: tree.Www);
        var context = ((SslServer)server).Context;
        context.ApplicationProtocols = offerH2
            ? new List<SslApplicationProtocol> { SslApplicationProtocol.Http2, SslApplicationProtocol.Http11 }
            : new List<SslApplicationProtocol> { SslApplicationProtocol.Http11 };

        var report = await Load(chromium, $"https://127.0.0.1:{port}/static/index.html");

        Assert.That(report.GetProperty("page").GetString(), Is.EqualTo(expected), "the page's own protocol (navigation entry)");
        var loaded = report.GetProperty("resources").EnumerateArray()
            .Select(e => (Path: e.GetProperty("path").GetString()!, Protocol: e.GetProperty("protocol").GetString()!)).ToList();
        Assert.That(loaded.Select(r => r.Path), Is.EquivalentTo(paths), "every resource of the page loaded, once");
        Assert.That(loaded.Where(r => r.Protocol != expected), Is.Empty, $"every resource came over {expected}");
    }

    // index.html and its 50 resources, written below tree.Www; returns the resources' paths as the browser asks for them.
    private static List<string> WritePage(TempTree tree)
    {
        var page = new StringBuilder("<!doctype html>\n<html><head><title>fifty</title>\n");
        var body = new StringBuilder();
        var paths = new List<string>();
        for (var i = 0; i < Resources; i++)
        {
            switch (i % 3)
            {
                case 0:
                    tree.Write($"r/{i}.css", $".c{i} {{ margin: {i}px; }}\n");
                    page.Append($"<link rel=\"stylesheet\" href=\"r/{i}.css\">\n");
                    paths.Add($"/static/r/{i}.css");
                    break;
                case 1:
                    tree.Write($"r/{i}.js", $"window.loaded{i} = {i};\n");
                    page.Append($"<script src=\"r/{i}.js\"></script>\n");
                    paths.Add($"/static/r/{i}.js");
                    break;
                default:
                    tree.Write($"r/{i}.svg", $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{i}\" height=\"1\"></svg>\n");
                    body.Append($"<img src=\"r/{i}.svg\" alt=\"{i}\">\n");
                    paths.Add($"/static/r/{i}.svg");
                    break;
            }
        }
        page.Append("</head><body>\n").Append(body).Append("<pre id=\"protocols\">not loaded</pre>\n").Append(Probe).Append("\n</body></html>\n");
        tree.Write("index.html", page.ToString());
        return paths;
    }

    // Loads the page in a fresh headless browser and returns what its script wrote into the DOM.
    private static async Task<JsonElement> Load(string chromium, string url)
    {
        var profile = Path.Combine(Path.GetTempPath(), "ncs-chromium-" + Guid.NewGuid().ToString("N"));
        try
        {
            var pin = Convert.ToBase64String(SHA256.HashData(SslTestTransport.ServerCertificate.PublicKey.ExportSubjectPublicKeyInfo()));
            List<string> arguments = [
                "--headless", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-background-networking",
                // The SPKI pin is honoured only with a profile of its own; it trusts the test certificate and nothing else.
                "--user-data-dir=" + profile, "--ignore-certificate-errors-spki-list=" + pin,
                "--dump-dom", url];
            // Chromium's sandbox cannot start as root.
            if (Environment.UserName == "root")
                arguments.Insert(0, "--no-sandbox");
            var result = await ExternalTool.Run(chromium, arguments, s_timeout);
            var written = ProtocolsElement().Match(result.Output);
            Assert.That(written.Success, Is.True, $"the page's script wrote the protocols (exit code {result.ExitCode}): {result}");
            var text = WebUtility.HtmlDecode(written.Groups[1].Value);
            Assert.That(text, Does.StartWith("{"), $"the page loaded and its script ran: {result}");
            return JsonDocument.Parse(text).RootElement.Clone();
        }
        finally
        {
            try
            {
                Directory.Delete(profile, recursive: true);
            }
            catch (DirectoryNotFoundException)
            {
            }
        }
    }

    [GeneratedRegex("<pre id=\"protocols\">(.*?)</pre>", RegexOptions.Singleline)]
    private static partial Regex ProtocolsElement();
}
