using System;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>The library's WebSocket server and client talking to each other over WS and WSS.</summary>
[TestFixture(WsTransport.Ws)]
[TestFixture(WsTransport.Wss)]
[TestFixture(WsTransport.WsPool)]
[TestFixture(WsTransport.WssPool)]
public sealed class WsEndToEndTests(WsTransport transport)
{
    private static async Task<byte[]> Next(WsProbe probe, string expected)
        => await Wait.For(probe.Messages.Reader.ReadAsync().AsTask(), expected);

    [Test]
    public async Task TextAndBinaryMessagesOfAllSizesComeBackWhole()
    {
        using var server = new WsTestServer(transport);
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");

        foreach (var size in new[] { 0, 1, 125, 126, 65535, 65536, 1024 * 1024 })
        {
            var text = new string('a', size);
            Assert.That(peer.SendTextAsync(Encoding.UTF8.GetBytes(text)), Is.True);
            var echoed = await Next(client.Probe, $"the echo of a {size}-byte text message");
            Assert.That(echoed.Length, Is.EqualTo(size));
            Assert.That(Encoding.UTF8.GetString(echoed), Is.EqualTo(text));
        }
        server.Probe.Echo = WsEcho.Binary;
        var binary = Enumerable.Range(0, 70000).Select(i => (byte)i).ToArray();
        Assert.That(peer.SendBinaryAsync(binary), Is.True);
        Assert.That(await Next(client.Probe, "the echo of a binary message"), Is.EqualTo(binary));
        Assert.That(client.Client.IsConnected, Is.True);
    }

    [Test]
    public async Task ABlockingSendFromTheReceiveHookEchoesEveryMessageInOrder()
    {
        using var server = new WsTestServer(transport);
        server.Probe.Echo = WsEcho.TextBlocking;
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");

        for (var i = 0; i < 300; i++)
            peer.SendTextAsync(Encoding.UTF8.GetBytes(i + new string('b', i * 100)));

        for (var i = 0; i < 300; i++)
            Assert.That(Encoding.UTF8.GetString(await Next(client.Probe, $"echo {i}")), Is.EqualTo(i + new string('b', i * 100)));
    }

    [Test]
    public async Task APingIsAnsweredWithAPongCarryingTheSamePayload()
    {
        using var server = new WsTestServer(transport);
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");

        Assert.That(peer.SendPingAsync("are you there"u8), Is.True);

        Assert.That(await Wait.For(client.Probe.Pong.Task, "the pong"), Is.EqualTo("are you there"u8.ToArray()));
    }

    [TestCase(true)]
    [TestCase(false)]
    public async Task TheCloseHandshakeEchoesStatusAndReasonAndEndsBothSides(bool clientCloses)
    {
        using var server = new WsTestServer(transport);
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");
        var session = await Wait.For(server.Probe.Upgraded.Task, "the session's OnWsConnected");
        var (closing, answering) = clientCloses ? (peer, server.Probe) : (session, client.Probe);
        var initiator = clientCloses ? client.Probe : server.Probe;

        Assert.That(closing.CloseAsync(4001, "bye now"), Is.True);

        Assert.That(await Wait.For(answering.CloseReceived.Task, "OnWsClose on the other side"), Is.EqualTo((4001, "bye now")));
        Assert.That(await Wait.For(initiator.CloseReceived.Task, "OnWsClose for the echo"), Is.EqualTo((4001, "bye now")));
        await Wait.For(server.Probe.Disconnected.Task, "the session's OnDisconnected");
        await Wait.For(client.Probe.Disconnected.Task, "the client's OnDisconnected");
        Assert.That(closing.IsWsOpen, Is.False);
    }
}
