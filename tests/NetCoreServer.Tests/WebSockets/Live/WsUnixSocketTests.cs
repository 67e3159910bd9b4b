using System;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>Our WsServer listening on a Unix domain socket file, with our WsClient connecting to that file.</summary>
[TestFixture]
public sealed class WsUnixSocketTests
{
    private static async Task<byte[]> Next(WsProbe probe, string expected)
        => await Wait.For(probe.Messages.Reader.ReadAsync().AsTask(), expected);

    [Test]
    public async Task TextAndBinaryMessagesEchoAndTheCloseHandshakeEndsBothSidesOverASocketFile()
    {
        var path = UdsTestTransport.NewPath();
        var serverProbe = new WsProbe();
        using var server = new UnixWsServer(new UnixDomainSocketEndPoint(path), serverProbe);
        Assert.That(server.Start(), Is.True, "the WsServer starts on the socket file");
        var clientProbe = new WsProbe { Echo = WsEcho.None };
        using var client = new UnixWsClient(new UnixDomainSocketEndPoint(path), clientProbe);

        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(clientProbe.Upgraded.Task, "the client's OnWsConnected over the socket file");
        var session = await Wait.For(serverProbe.Upgraded.Task, "the session's OnWsConnected");

        var text = "over a socket file, h\u00e9llo \u2713";
        Assert.That(peer.SendTextAsync(Encoding.UTF8.GetBytes(text)), Is.True);
        Assert.That(Encoding.UTF8.GetString(await Next(clientProbe, "the echo of a text message")), Is.EqualTo(text));
        serverProbe.Echo = WsEcho.Binary;
        var binary = Enumerable.Range(0, 70000).Select(i => (byte)i).ToArray();
        Assert.That(peer.SendBinaryAsync(binary), Is.True);
        Assert.That(await Next(clientProbe, "the echo of a binary message"), Is.EqualTo(binary));

        Assert.That(peer.CloseAsync(4001, "bye now"), Is.True);
        Assert.That(await Wait.For(serverProbe.CloseReceived.Task, "OnWsClose at the server"), Is.EqualTo((4001, "bye now")));
        Assert.That(await Wait.For(clientProbe.CloseReceived.Task, "OnWsClose at the client for the echo"), Is.EqualTo((4001, "bye now")));
        await Wait.For(serverProbe.Disconnected.Task, "the session's OnDisconnected");
        await Wait.For(clientProbe.Disconnected.Task, "the client's OnDisconnected");
        Assert.That(peer.IsWsOpen, Is.False);
        Assert.That(session.IsWsOpen, Is.False);
    }

    [Test]
    public async Task StopRemovesTheSocketFileAndTheServerUpgradesAgainAfterARestart()
    {
        var path = UdsTestTransport.NewPath();
        var serverProbe = new WsProbe();
        using var server = new UnixWsServer(new UnixDomainSocketEndPoint(path), serverProbe);
        Assert.That(server.Start(), Is.True);
        Assert.That(server.Stop(), Is.True);
        Assert.That(File.Exists(path), Is.False, "Stop removed the socket file");

        Assert.That(server.Start(), Is.True, "the server starts again on the same path");
        var clientProbe = new WsProbe { Echo = WsEcho.None };
        using var client = new UnixWsClient(new UnixDomainSocketEndPoint(path), clientProbe);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(clientProbe.Upgraded.Task, "the client's OnWsConnected after the restart");
        Assert.That(peer.SendTextAsync("again"u8), Is.True);
        Assert.That(await Next(clientProbe, "the echo after the restart"), Is.EqualTo("again"u8.ToArray()));
    }

    [Test]
    public async Task AWssClientTalksToAWssServerOnASocketFile()
    {
        var path = UdsTestTransport.NewPath();
        var serverProbe = new WsProbe();
        using var server = new UnixWssServer(SslTestTransport.DefaultServerContext(), new UnixDomainSocketEndPoint(path), serverProbe);
        Assert.That(server.Start(), Is.True, "the WssServer starts on the socket file");
        var clientProbe = new WsProbe { Echo = WsEcho.None };
        using var client = new UnixWssClient(SslTestTransport.DefaultClientContext(), new UnixDomainSocketEndPoint(path), clientProbe);

        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(clientProbe.Upgraded.Task, "the client's OnWsConnected over TLS on the socket file (certificate checked for localhost)");
        Assert.That(peer.SendTextAsync("secure and local"u8), Is.True);
        Assert.That(await Next(clientProbe, "the echo"), Is.EqualTo("secure and local"u8.ToArray()));
    }

    private sealed class UnixWssServer(SslContext context, UnixDomainSocketEndPoint endpoint, WsProbe probe) : WssServer(context, endpoint)
    {
        protected override SslSession CreateSession() => new WsTestSecureSession(this, probe);
    }

    private sealed class UnixWssClient(SslContext context, UnixDomainSocketEndPoint endpoint, WsProbe probe) : WssClient(context, endpoint), IWsPeer
    {
        public override void OnWsConnected(HttpResponse response) => probe.Connected(this);

        public override void OnWsReceived(byte[] buffer, long offset, long size) => probe.Received(this, buffer, offset, size);

        public override void OnWsClose(byte[] buffer, long offset, long size, int status) => probe.Closed(buffer, offset, size, status);

        public override void OnWsError(string error) => probe.Failed(error);

        protected override void OnDisconnected() => probe.Disconnected.TrySetResult(probe.Hook("OnDisconnected"));
    }

    private sealed class UnixWsServer(UnixDomainSocketEndPoint endpoint, WsProbe probe) : WsServer(endpoint)
    {
        protected override TcpSession CreateSession() => new WsTestPlainSession(this, probe);
    }

    private sealed class UnixWsClient(UnixDomainSocketEndPoint endpoint, WsProbe probe) : WsClient(endpoint), IWsPeer
    {
        public override void OnWsConnected(HttpResponse response) => probe.Connected(this);

        public override void OnWsReceived(byte[] buffer, long offset, long size) => probe.Received(this, buffer, offset, size);

        public override void OnWsClose(byte[] buffer, long offset, long size, int status) => probe.Closed(buffer, offset, size, status);

        public override void OnWsError(string error) => probe.Failed(error);

        protected override void OnDisconnected() => probe.Disconnected.TrySetResult(probe.Hook("OnDisconnected"));
    }
}
