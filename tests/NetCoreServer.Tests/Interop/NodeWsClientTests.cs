using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Interop.WebSocketPeers;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>
/// The npm <c>ws</c> package's client (tests/interop/ws-client-check.js) against our WsServer and WssServer, with and
/// without permessage-deflate: text, binary and a large compressible message echoed, a ping answered with its payload,
/// and a close with a status and a reason answered with the same.
/// </summary>
[TestFixture]
public sealed class NodeWsClientTests
{
    // What ws-client-check.js sends, in its order.
    private const string Text = "hello from ws, h\u00e9llo \u2713 \U0001F600";
    private static readonly byte[] s_binary = Enumerable.Range(0, 512).Select(i => (byte)i).ToArray();
    private static readonly string s_large = string.Concat(Enumerable.Repeat("the quick brown fox jumps over the lazy dog. ", 4000));

    [TestCase(false, false, TestName = "The ws client talks to our WsServer")]
    [TestCase(false, true, TestName = "The ws client talks to our WsServer with permessage-deflate")]
    [TestCase(true, false, TestName = "The ws client talks to our WssServer")]
    [TestCase(true, true, TestName = "The ws client talks to our WssServer with permessage-deflate")]
    public async Task TheWsClientTalksToOurServer(bool secure, bool deflate)
    {
        NodePeers.Require("ws");
        var recorder = new WsEchoRecorder();
        using var pem = new PemFiles();
        var (server, port) = StartServer(secure, deflate, recorder);
        using var stopped = server;
        var url = $"{(secure ? "wss" : "ws")}://127.0.0.1:{port}/";
        var authority = secure ? pem.Write("ca", SslTestTransport.Authority) : null;

        var report = await NodePeers.RunClientCheck(url, deflate, authority);

        Assert.That(report.GetProperty("events").EnumerateArray().Select(e => e.GetString()),
            Is.EqualTo(new[] { "open", "text", "binary", "text", "pong", "close" }), "the exchange in order");
        var negotiated = await Wait.For(recorder.Extensions.Task, "the server's upgrade answer");
        Assert.That(report.GetProperty("extensions").GetString(), deflate ? Does.StartWith("permessage-deflate") : Is.Empty,
            "the client sees permessage-deflate accepted exactly when both sides want it");
        Assert.That(negotiated, deflate ? Does.StartWith("permessage-deflate") : Is.Empty, "what our server answered");
        Assert.That(report.GetProperty("protocol").GetString(), Is.EqualTo("chat"), "the subprotocol our server chose from the client's offer");

        Assert.That(report.GetProperty("text").GetString(), Is.EqualTo(Text), "text echoed intact (UTF-8 beyond the BMP)");
        Assert.That(report.GetProperty("textIsBinary").GetBoolean(), Is.False, "a text message came back as text");
        Assert.That(report.GetProperty("binary").GetString(), Is.EqualTo(Convert.ToHexStringLower(s_binary)), "every byte value echoed");
        Assert.That(report.GetProperty("binaryIsBinary").GetBoolean(), Is.True, "a binary message came back as binary");
        Assert.That(report.GetProperty("largeLength").GetInt32(), Is.EqualTo(s_large.Length));
        Assert.That(report.GetProperty("largeMatches").GetBoolean(), Is.True, "the large message echoed intact");
        Assert.That(report.GetProperty("pong").GetString(), Is.EqualTo("ping-42"), "our server answered the ping with its payload");
        Assert.That(report.GetProperty("closeCode").GetInt32(), Is.EqualTo(4000), "our server echoed the close status");
        Assert.That(report.GetProperty("closeReason").GetString(), Is.EqualTo("done here"), "and the reason");

        var messages = recorder.Messages.ToArray();
        Assert.That(messages, Has.Length.EqualTo(3), "three messages arrived at our server");
        Assert.That(Encoding.UTF8.GetString(messages[0]), Is.EqualTo(Text));
        Assert.That(messages[1], Is.EqualTo(s_binary));
        Assert.That(Encoding.UTF8.GetString(messages[2]), Is.EqualTo(s_large));
        var (status, reason) = await Wait.For(recorder.Closed.Task, "the client's close frame at our server");
        Assert.That((status, reason), Is.EqualTo((4000, "done here")), "our server saw the client's close status and reason");
    }

    [Test]
    public async Task TheWsClientTalksToOurWsServerOnASocketFile()
    {
        NodePeers.Require("ws");
        var recorder = new WsEchoRecorder();
        var path = UdsTestTransport.NewPath();
        using var server = new UnixWsServer(new UnixDomainSocketEndPoint(path), recorder);
        server.Ws.SelectSubprotocol = ChooseChat;
        Assert.That(server.Start(), Is.True, "the WsServer starts on the socket file");

        // The ws package's form for a socket file: ws+unix://PATH:RESOURCE.
        var report = await NodePeers.RunClientCheck($"ws+unix://{path}:/chat", deflate: false);

        Assert.That(report.GetProperty("events").EnumerateArray().Select(e => e.GetString()),
            Is.EqualTo(new[] { "open", "text", "binary", "text", "pong", "close" }), "the exchange in order");
        Assert.That(report.GetProperty("text").GetString(), Is.EqualTo(Text), "text echoed intact");
        Assert.That(report.GetProperty("binary").GetString(), Is.EqualTo(Convert.ToHexStringLower(s_binary)), "every byte value echoed");
        Assert.That(report.GetProperty("binaryIsBinary").GetBoolean(), Is.True);
        Assert.That(report.GetProperty("largeMatches").GetBoolean(), Is.True, "the large message echoed intact");
        Assert.That(report.GetProperty("closeCode").GetInt32(), Is.EqualTo(4000), "our server echoed the close status");
        var (status, reason) = await Wait.For(recorder.Closed.Task, "the client's close frame at our server");
        Assert.That((status, reason), Is.EqualTo((4000, "done here")));
        Assert.That(recorder.Messages, Has.Count.EqualTo(3), "three messages arrived at our server");
    }

    private sealed class UnixWsServer(UnixDomainSocketEndPoint endpoint, WsEchoRecorder recorder) : WsServer(endpoint)
    {
        protected override TcpSession CreateSession() => new InteropWsSession(this, recorder);
    }

    // ws-client-check.js offers the subprotocol "chat"; the ws client fails a connection whose server picks none.
    private static string? ChooseChat(IReadOnlyList<string> offered) => offered.Contains("chat") ? "chat" : null;

    // Our echo server on a free loopback port; the Ws and Wss servers share no base class that has the options.
    private static (IDisposable Server, int Port) StartServer(bool secure, bool deflate, WsEchoRecorder recorder)
    {
        if (secure)
        {
            var wss = new InteropWssServer(SslTestTransport.DefaultServerContext(), recorder);
            wss.Ws.Deflate = deflate;
            wss.Ws.SelectSubprotocol = ChooseChat;
            Assert.That(wss.Start(), Is.True, "the WssServer starts");
            return (wss, ((IPEndPoint)wss.Endpoint).Port);
        }
        var ws = new InteropWsServer(recorder);
        ws.Ws.Deflate = deflate;
        ws.Ws.SelectSubprotocol = ChooseChat;
        Assert.That(ws.Start(), Is.True, "the WsServer starts");
        return (ws, ((IPEndPoint)ws.Endpoint).Port);
    }
}
