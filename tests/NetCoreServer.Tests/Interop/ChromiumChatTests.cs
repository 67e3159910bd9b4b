using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Security.Cryptography.X509Certificates;
using System.Security.Authentication;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NetCoreServer.Tests.Interop.WebSocketPeers;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>
/// Headless Chromium (Debian's chromium, driven by playwright-core through tests/interop/chat-browser.js) loads the chat
/// page from our WsChatServer and WssChatServer examples, run as processes, and chats through them with one of our
/// clients: each side sees the other's message. The WSS page is served with the examples' own certificate, which the
/// browser does not know, so it ignores certificate errors; our client checks it against the examples' authority.
/// </summary>
[TestFixture]
public sealed class ChromiumChatTests
{
    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(60);
    private static readonly TimeSpan s_browserTimeout = TimeSpan.FromSeconds(60);

    [TestCase(false, TestName = "Chromium chats through our WsChatServer with our WsClient")]
    [TestCase(true, TestName = "Chromium chats through our WssChatServer with our WssClient")]
    public async Task ChromiumChatsThroughOurChatServer(bool secure)
    {
        var (node, interop) = NodePeers.Require("playwright-core");
        NodePeers.RequireChromium();
        var root = RepositoryBuild.RequireRoot("the chat examples cannot be built");
        var project = secure ? "WssChatServer" : "WsChatServer";
        var protocol = secure ? "WSS" : "WS";
        var assembly = await RepositoryBuild.Build($"examples/{project}/{project}.csproj", $"bin/Release/net10.0/{project}.dll");

        // From the repository root, where the TLS examples find (or create) tools/certificates.
        using var server = ChildProcess.Start(RepositoryBuild.StartInfo([assembly, "0"], root), $"the {project} example");
        var listening = await server.WaitForLine($@"^{protocol} chat server listening on 127\.0\.0\.1:(\d+)$", "its 'listening on' line", s_startTimeout);
        var port = int.Parse(listening.Groups[1].Value, CultureInfo.InvariantCulture);
        var page = (await server.WaitForLine(@"^Chat page: (\S+)$", "the chat page's address")).Groups[1].Value;
        Assert.That(page, Is.EqualTo($"{(secure ? "https" : "http")}://127.0.0.1:{port}/chat/index.html"));

        var probe = new WsClientProbe();
        using var client = Connect(secure, root, port, probe);
        await Wait.For(probe.Upgraded.Task, "our client's upgrade at the chat server");
        Assert.That(Encoding.UTF8.GetString(await probe.NextMessage("the chat's welcome")), Does.StartWith($"Welcome to the {protocol} chat!"));

        var tag = Guid.NewGuid().ToString("N")[..8];
        var fromPage = $"hello from chromium {tag}";
        var fromClient = $"hello from our client {tag}";
        using var browser = ChildProcess.Start(node,
            [Path.Combine(interop, "chat-browser.js"), page, "--send", fromPage, "--expect", fromClient, "--expect", fromPage, "--timeout", "30"],
            "Chromium (chat-browser.js)");
        await browser.WaitForLine("^page connected$", "the page's WebSocket connected", s_browserTimeout);
        // The page sends its message as soon as it is connected; ours goes now, so the page is there to see it.
        Assert.That(client.SendText(fromClient), Is.GreaterThan(0));

        var received = new List<string>();
        // Both arrive, in either order: the page's message, and our own relayed back to us too.
        while (!(received.Contains(fromPage) && received.Contains(fromClient)) && received.Count < 10)
            received.Add(Encoding.UTF8.GetString(await probe.NextMessage($"the page's message and ours at our client (so far: {string.Join(" | ", received)})")));
        Assert.That(received, Does.Contain(fromPage), "our client saw the page's message, relayed by the server");
        Assert.That(received, Does.Contain(fromClient), "and its own message, relayed to everyone");

        await browser.WaitForLine($"^page saw {Regex.Escape(fromClient)}$", "the page showing our client's message", s_browserTimeout);
        await browser.WaitForLine($"^page saw {Regex.Escape(fromPage)}$", "the page showing its own message, relayed back", s_browserTimeout);
        var listed = JsonSerializer.Deserialize<string[]>((await browser.WaitForLine("^page messages (.*)$", "the page's list of messages")).Groups[1].Value)!;
        Assert.That(listed[0], Does.StartWith($"Welcome to the {protocol} chat!"), "the page shows the welcome first");
        Assert.That(listed, Does.Contain(fromPage).And.Contain(fromClient), "the page lists its own message, relayed back, and ours");
        Assert.That(await browser.WaitForExit("after its check", s_browserTimeout), Is.EqualTo(0), browser.Output);
        await server.WaitForLine($"^Incoming: {Regex.Escape(fromPage)}$", "the server's log of the page's message");
        await server.WaitForLine($"^Incoming: {Regex.Escape(fromClient)}$", "the server's log of our client's message");
    }

    private static IInteropWsClient Connect(bool secure, string root, int port, WsClientProbe probe)
    {
        IInteropWsClient client;
        if (secure)
        {
            // The server created tools/certificates (when missing) before it listened.
            var authority = X509CertificateLoader.LoadCertificateFromFile(Path.Combine(root, "tools", "certificates", "ca.crt"));
            client = new InteropWssClient(new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, TrustedBy.Authority(authority)), port, probe);
        }
        else
        {
            client = new InteropWsClient(port, probe);
        }
        Assert.That(client.ConnectAsync(), Is.True, "our client starts connecting");
        return client;
    }
}
