using System;
using System.Collections.Concurrent;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.WebSockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>The core's extension point for backplanes: what reaches an <see cref="IMulticastRelay"/>, and what does not.</summary>
[TestFixture]
public sealed class MulticastRelayTests
{
    [Test]
    public async Task RawMulticastReachesTheRelayAndMulticastLocalDoesNot()
    {
        using var server = new IdServer();
        var relay = new RecordingRelay();
        server.MulticastRelay = relay;
        Assert.That(server.Start(), Is.True);
        using var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
        await Wait.Until(() => server.ConnectedSessions == 1, "the session registered");
        using var reader = new StreamReader(client.GetStream());

        Assert.That(server.Multicast("one\n"), Is.True);
        Assert.That(server.MulticastLocal(MulticastKind.Raw, "two\n"u8), Is.True);
        Assert.That(server.MulticastLocal(MulticastKind.Raw, "skipped\n"u8, _ => false), Is.True);
        Assert.That(server.SendLocal(server.Ids.Single(), MulticastKind.Raw, "three\n"u8), Is.True);
        Assert.That(server.SendLocal(Guid.NewGuid(), MulticastKind.Raw, "nobody\n"u8), Is.False);
        Assert.That(server.Multicast("four\n"), Is.True);

        foreach (var expected in new[] { "one", "two", "three", "four" })
            Assert.That(await ReadLineAsync(reader), Is.EqualTo(expected));
        Assert.That(relay.Multicasts.Select(m => (m.Kind, Encoding.UTF8.GetString(m.Payload))),
            Is.EqualTo(new[] { (MulticastKind.Raw, "one\n"), (MulticastKind.Raw, "four\n") }));

        var id = server.Ids.Single();
        client.Close();
        await Wait.Until(() => relay.Closed.Count == 1, "OnSessionClosed for the session that went");
        Assert.That(relay.Closed.Single(), Is.EqualTo(id));
    }

    [Test]
    public async Task WebSocketTextAndBinaryReachTheRelayAsPayloadsAndPingsDoNot()
    {
        using var server = new IdWsServer();
        var relay = new RecordingRelay();
        server.MulticastRelay = relay;
        Assert.That(server.Start(), Is.True);
        using var client = await ConnectUpgradedAsync(server);

        Assert.That(server.MulticastText("text"), Is.True);
        Assert.That(server.MulticastBinary(new byte[] { 1, 2, 3 }), Is.True);
        Assert.That(server.MulticastPing("ping"), Is.True);
        Assert.That(server.MulticastLocal(MulticastKind.Text, "local"u8), Is.True);
        Assert.That(server.SendLocal(server.Ids.Single(), MulticastKind.Binary, new byte[] { 9 }), Is.True);

        Assert.That(await ReceiveAsync(client), Is.EqualTo((WebSocketMessageType.Text, "text"u8.ToArray())));
        Assert.That(await ReceiveAsync(client), Is.EqualTo((WebSocketMessageType.Binary, new byte[] { 1, 2, 3 })));
        Assert.That(await ReceiveAsync(client), Is.EqualTo((WebSocketMessageType.Text, "local"u8.ToArray())));
        Assert.That(await ReceiveAsync(client), Is.EqualTo((WebSocketMessageType.Binary, new byte[] { 9 })));
        Assert.That(relay.Multicasts.Select(m => (m.Kind, m.Payload)),
            Is.EqualTo(new[] { (MulticastKind.Text, "text"u8.ToArray()), (MulticastKind.Binary, new byte[] { 1, 2, 3 }) }));
    }

    [Test]
    public async Task RelayedBytesReachWebSocketClientsOnlyAsMessagesTheServerFramed()
    {
        using var server = new IdWsServer();
        var relay = new RecordingRelay();
        server.MulticastRelay = relay;
        Assert.That(server.Start(), Is.True);
        using var client = await ConnectUpgradedAsync(server);
        var id = server.Ids.Single();
        byte[] close = [0x88, 0x02, 0x03, 0xE8];
        byte[] invalid = [0x68, 0xC3, 0x28];

        Assert.That(server.MulticastRelayed(MulticastKind.Raw, close), Is.EqualTo(RelayedVerdict.RefusedFrames));
        Assert.That(server.SendRelayed(id, MulticastKind.Raw, close), Is.EqualTo(RelayedVerdict.RefusedFrames));
        Assert.That(server.SendRelayed(Guid.NewGuid(), MulticastKind.Raw, close), Is.EqualTo(RelayedVerdict.RefusedFrames), "judged where the session is not");
        Assert.That(server.MulticastRelayed(MulticastKind.Raw, [0x81, 0x85, 1, 2, 3, 4, 0, 0, 0, 0, 0]), Is.EqualTo(RelayedVerdict.RefusedFrames), "a masked (client) frame");
        Assert.That(server.MulticastRelayed(MulticastKind.Text, invalid), Is.EqualTo(RelayedVerdict.RefusedText));
        Assert.That(server.SendRelayed(id, MulticastKind.Text, invalid), Is.EqualTo(RelayedVerdict.RefusedText));
        Assert.That(server.MulticastRelayed((MulticastKind)7, "seven"u8), Is.EqualTo(RelayedVerdict.RefusedKind));
        Assert.That(server.MulticastRelayed(MulticastKind.Raw, [0x81, 0x03, (byte)'r', (byte)'a', (byte)'w']), Is.EqualTo(RelayedVerdict.Accepted));
        Assert.That(server.SendRelayed(id, MulticastKind.Raw, [0x82, 0x01, 5]), Is.EqualTo(RelayedVerdict.Accepted));
        Assert.That(server.MulticastRelayed(MulticastKind.Text, "text"u8), Is.EqualTo(RelayedVerdict.Accepted));

        Assert.That(await ReceiveAsync(client), Is.EqualTo((WebSocketMessageType.Text, "raw"u8.ToArray())));
        Assert.That(await ReceiveAsync(client), Is.EqualTo((WebSocketMessageType.Binary, new byte[] { 5 })));
        Assert.That(await ReceiveAsync(client), Is.EqualTo((WebSocketMessageType.Text, "text"u8.ToArray())));
        Assert.That(client.State, Is.EqualTo(WebSocketState.Open));
        Assert.That(relay.Multicasts, Is.Empty, "relayed bytes are never relayed again");
    }

    [Test]
    public async Task RelayedBytesAreSentRawByATcpServerAndRefusedByAnHttpServer()
    {
        using var server = new IdServer();
        Assert.That(server.Start(), Is.True);
        using var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
        await Wait.Until(() => server.ConnectedSessions == 1, "the session registered");
        using var reader = new StreamReader(client.GetStream());

        Assert.That(server.MulticastRelayed(MulticastKind.Raw, "one\n"u8), Is.EqualTo(RelayedVerdict.Accepted));
        Assert.That(server.MulticastRelayed(MulticastKind.Text, [0xFF, 0x0A]), Is.EqualTo(RelayedVerdict.RefusedText));
        Assert.That(server.SendRelayed(server.Ids.Single(), MulticastKind.Binary, "two\n"u8), Is.EqualTo(RelayedVerdict.Accepted));
        Assert.That(server.MulticastRelayed(MulticastKind.Text, "three\n"u8), Is.EqualTo(RelayedVerdict.Accepted));
        foreach (var expected in new[] { "one", "two", "three" })
            Assert.That(await ReadLineAsync(reader), Is.EqualTo(expected));

        using var http = new HttpServer(IPAddress.Loopback, 0);
        Assert.That(http.Start(), Is.True);
        foreach (var kind in new[] { MulticastKind.Raw, MulticastKind.Text, MulticastKind.Binary })
        {
            Assert.That(http.MulticastRelayed(kind, "HTTP/1.1 200 OK\r\n"u8), Is.EqualTo(RelayedVerdict.RefusedKind), $"{kind} on HTTP");
            Assert.That(http.SendRelayed(Guid.NewGuid(), kind, "HTTP/1.1 200 OK\r\n"u8), Is.EqualTo(RelayedVerdict.RefusedKind), $"{kind} to an HTTP session");
        }
    }

    private static async Task<string?> ReadLineAsync(StreamReader reader)
    {
        using var cancel = new CancellationTokenSource(Wait.Default);
        return await reader.ReadLineAsync(cancel.Token);
    }

    /// <summary>A client of <paramref name="server"/>, returned once its session is open for WebSocket messages.</summary>
    private static async Task<ClientWebSocket> ConnectUpgradedAsync(IdWsServer server)
    {
        var client = new ClientWebSocket();
        using (var cancel = new CancellationTokenSource(Wait.Default))
            await client.ConnectAsync(new Uri($"ws://127.0.0.1:{((IPEndPoint)server.Endpoint).Port}/"), cancel.Token);
        // The client reads its 101 a moment before the session is open for WebSocket messages (as in NetCoreServer):
        // a multicast in between would skip it.
        await Wait.Until(() => server.OpenSessions == 1, "the session upgraded");
        return client;
    }

    private static async Task<(WebSocketMessageType Type, byte[] Bytes)> ReceiveAsync(ClientWebSocket client)
    {
        using var cancel = new CancellationTokenSource(Wait.Default);
        var message = new MemoryStream();
        var buffer = new byte[4096];
        while (true)
        {
            var result = await client.ReceiveAsync(buffer, cancel.Token);
            message.Write(buffer, 0, result.Count);
            if (result.EndOfMessage)
                return (result.MessageType, message.ToArray());
        }
    }

    private sealed class RecordingRelay : IMulticastRelay
    {
        public ConcurrentQueue<(MulticastKind Kind, byte[] Payload)> Multicasts { get; } = new();

        public ConcurrentQueue<Guid> Closed { get; } = new();

        public void OnMulticast(MulticastKind kind, ReadOnlySpan<byte> payload) => Multicasts.Enqueue((kind, payload.ToArray()));

        public void OnSessionClosed(StreamSession session) => Closed.Enqueue(session.Id);
    }

    private sealed class IdServer() : TcpServer(IPAddress.Loopback, 0)
    {
        public Guid[] Ids => Sessions.Keys.ToArray();
    }

    private sealed class IdWsServer() : WsServer(IPAddress.Loopback, 0)
    {
        public Guid[] Ids => Sessions.Keys.ToArray();

        public int OpenSessions => Sessions.Values.Count(s => ((WsSession)s).IsWsOpen);
    }
}
