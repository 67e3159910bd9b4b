using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>The library's client against a server written for the tests (<see cref="FakeWsServer"/>), over WS and WSS.</summary>
[TestFixture(WsTransport.Ws)]
[TestFixture(WsTransport.Wss)]
public sealed class WsClientBehaviourTests(WsTransport transport)
{
    private static string SwitchingProtocols(string accept, string extra = "")
        => $"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n{extra}\r\n";

    [Test]
    public async Task TheClientSendsAValidUpgradeAndMasksEveryFrameWithAFreshKey()
    {
        using var server = new FakeWsServer(transport);
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var head = await server.AcceptAsync();

        Assert.That(head, Does.StartWith("GET / HTTP/1.1\r\n"));
        foreach (var field in new[] { "Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13", "Host: " })
            Assert.That(head, Does.Contain(field));
        await server.SendAsync(Encoding.ASCII.GetBytes(SwitchingProtocols(FakeWsServer.AcceptFor(head))));
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");

        var masks = new HashSet<string>();
        for (var i = 0; i < 20; i++)
        {
            peer.SendTextAsync(Encoding.UTF8.GetBytes("message " + i));
            var (first, mask, payload) = await server.ReadFrameAsync();
            Assert.That(first, Is.EqualTo(0x81));
            Assert.That(mask, Is.Not.Null, "client frames are masked");
            Assert.That(Encoding.UTF8.GetString(payload), Is.EqualTo("message " + i));
            masks.Add(Convert.ToHexString(mask!));
        }
        Assert.That(masks.Count, Is.GreaterThanOrEqualTo(19), "a fresh random key per frame");
    }

    [Test]
    public async Task AWrongAcceptKeyFailsTheUpgrade()
    {
        using var server = new FakeWsServer(transport);
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        await server.AcceptAsync();

        await server.SendAsync(Encoding.ASCII.GetBytes(SwitchingProtocols("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")));

        Assert.That(await Wait.For(client.Probe.Error.Task, "the client's OnWsError"), Does.Contain("Sec-WebSocket-Accept"));
        await Wait.For(client.Probe.Disconnected.Task, "the client's OnDisconnected");
        Assert.That(client.Probe.Upgraded.Task.IsCompleted, Is.False);
    }

    [Test]
    public async Task FramesRightBehindThe101AreDeliveredAndAMaskedServerFrameFailsWith1002()
    {
        using var server = new FakeWsServer(transport);
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var head = await server.AcceptAsync();
        var greeting = WsTestFrames.Frame(0x81, WsTestFrames.Utf8("right behind"));

        await server.SendAsync(WsTestFrames.Concat(Encoding.ASCII.GetBytes(SwitchingProtocols(FakeWsServer.AcceptFor(head))), greeting));
        Assert.That(Encoding.UTF8.GetString(await Wait.For(client.Probe.Messages.Reader.ReadAsync().AsTask(), "the greeting")), Is.EqualTo("right behind"));

        await server.SendAsync(WsTestFrames.Frame(0x81, WsTestFrames.Utf8("masked"), WsTestFrames.RfcMask));
        var (first, _, payload) = await server.ReadFrameAsync();
        Assert.That(first, Is.EqualTo(0x88));
        Assert.That((payload[0] << 8) | payload[1], Is.EqualTo(1002));
        Assert.That(await Wait.For(client.Probe.Error.Task, "the client's OnWsError"), Does.Contain("masked"));
        Assert.That(await server.ClientClosedAsync(), Is.True);
    }

    [Test]
    public async Task AClientWhoseServerNeverAnswersItsCloseClosesAfterTheCloseTimeout()
    {
        using var server = new FakeWsServer(transport);
        using var client = new WsTestClient(transport, server.Port, options => options.CloseTimeout = TimeSpan.FromMilliseconds(300));
        Assert.That(client.ConnectAsync(), Is.True);
        var head = await server.AcceptAsync();
        await server.SendAsync(Encoding.ASCII.GetBytes(SwitchingProtocols(FakeWsServer.AcceptFor(head))));
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");

        peer.CloseAsync(1000, "bye");

        var (first, _, payload) = await server.ReadFrameAsync();
        Assert.That((first, Encoding.UTF8.GetString(payload, 2, payload.Length - 2)), Is.EqualTo(((byte)0x88, "bye")));
        await Wait.For(client.Probe.Disconnected.Task, "the client's OnDisconnected without an answer");
    }
}
