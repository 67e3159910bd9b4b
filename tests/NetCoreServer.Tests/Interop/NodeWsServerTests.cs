using System;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Interop.WebSocketPeers;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>
/// Our WsClient and WssClient against the npm <c>ws</c> package's server (tests/interop/ws-echo-server.js), with and
/// without permessage-deflate: messages echoed, pings answered both ways, and the close handshake started by either side
/// with a status and a reason that the other side sees.
/// </summary>
[TestFixture]
public sealed class NodeWsServerTests
{
    [TestCase(false, false, TestName = "Our WsClient talks to the ws server")]
    [TestCase(false, true, TestName = "Our WsClient talks to the ws server with permessage-deflate")]
    [TestCase(true, false, TestName = "Our WssClient talks to the ws server over TLS")]
    [TestCase(true, true, TestName = "Our WssClient talks to the ws server over TLS with permessage-deflate")]
    public async Task OurClientTalksToTheWsServer(bool secure, bool deflate)
    {
        using var pem = new PemFiles();
        var (server, port) = await NodePeers.StartEchoServer(deflate, secure ? WriteServerCertificate(pem) : null);
        using var stopped = server;
        var probe = new WsClientProbe();
        using var client = Connect(secure, deflate, port, probe);

        var extensions = await Wait.For(probe.Upgraded.Task, "the ws server's 101");
        Assert.That(extensions, deflate ? Does.StartWith("permessage-deflate") : Is.Empty, "our client's deflate offer was accepted exactly when made");
        await server.WaitForLine($"^connected extensions={(deflate ? "permessage-deflate" : "none")}", "the upgrade as the ws server saw it");

        var text = "hello ws, from our client: h\u00e9llo \u2713 \U0001F600";
        Assert.That(client.SendText(text), Is.GreaterThan(0));
        Assert.That(Encoding.UTF8.GetString(await probe.NextMessage("the text echoed")), Is.EqualTo(text));
        await server.WaitForLine($"^text {Encoding.UTF8.GetByteCount(text)} ", "our text as the ws server decoded it");

        var binary = Enumerable.Range(0, 1000).Select(i => (byte)(i * 7)).ToArray();
        Assert.That(client.SendBinary(binary), Is.GreaterThan(0));
        Assert.That(await probe.NextMessage("the binary message echoed"), Is.EqualTo(binary));
        await server.WaitForLine($"^binary 1000 {Convert.ToHexStringLower(binary[..64])}$", "our binary message as the ws server decoded it");

        var large = string.Concat(Enumerable.Repeat("a large, very compressible message; ", 10_000));
        client.SendText(large);
        Assert.That(Encoding.UTF8.GetString(await probe.NextMessage("the large message echoed")), Is.EqualTo(large));

        client.SendPing("our ping");
        Assert.That(Encoding.UTF8.GetString(await probe.NextPong("the ws server's pong")), Is.EqualTo("our ping"), "the ws server answered with our payload");
        await server.WaitForLine("^ping our ping$", "our ping at the ws server");

        client.SendText("please-ping:their ping");
        await server.WaitForLine("^pong their ping$", "our client's automatic pong, with the ws server's payload");

        client.Close(4000, "our client is done");
        await server.WaitForLine("^close 4000 our client is done$", "our close status and reason at the ws server");
        var (status, reason) = await Wait.For(probe.Closed.Task, "the ws server's answer to our close");
        Assert.That(status, Is.EqualTo(4000), "the ws server echoed our status");
        await Wait.For(probe.WsDisconnected.Task, "our client to close the connection");
        Assert.That(probe.Errors, Is.Empty, $"no WebSocket error (the close reason echoed: '{reason}')");
    }

    [TestCase(false, TestName = "The ws server closing with a status and a reason reaches our WsClient")]
    [TestCase(true, TestName = "The ws server closing with a status and a reason reaches our WssClient")]
    public async Task TheWsServerClosingReachesOurClient(bool secure)
    {
        using var pem = new PemFiles();
        var (server, port) = await NodePeers.StartEchoServer(false, secure ? WriteServerCertificate(pem) : null);
        using var stopped = server;
        var probe = new WsClientProbe();
        using var client = Connect(secure, false, port, probe);
        await Wait.For(probe.Upgraded.Task, "the ws server's 101");

        client.SendText("please-close:4001:the ws server says bye");

        var (status, reason) = await Wait.For(probe.Closed.Task, "the ws server's close frame");
        Assert.That((status, reason), Is.EqualTo((4001, "the ws server says bye")), "OnWsClose got the server's status and reason");
        await Wait.For(probe.WsDisconnected.Task, "the connection to close after the close handshake");
        await server.WaitForLine("^close 4001 ", "our client's answer to the close, with the same status");
        Assert.That(probe.Errors, Is.Empty, "a clean close is no error");
    }

    // The ws server reads PEM files; the certificate names 127.0.0.1, where our client connects.
    private static PemFiles WriteServerCertificate(PemFiles pem)
    {
        pem.Write("server", SslTestTransport.ServerCertificate);
        return pem;
    }

    private static IInteropWsClient Connect(bool secure, bool deflate, int port, WsClientProbe probe)
    {
        if (secure)
        {
            var wss = new InteropWssClient(SslTestTransport.DefaultClientContext(), port, probe);
            wss.Ws.Deflate = deflate;
            Assert.That(wss.ConnectAsync(), Is.True, "our WssClient starts connecting");
            return wss;
        }
        var ws = new InteropWsClient(port, probe);
        ws.Ws.Deflate = deflate;
        Assert.That(ws.ConnectAsync(), Is.True, "our WsClient starts connecting");
        return ws;
    }
}
