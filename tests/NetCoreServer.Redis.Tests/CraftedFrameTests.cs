using System;
using System.Buffers.Binary;
using System.IO;
using System.Net;
using System.Net.WebSockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>
/// Frames that no node published, sent to the backplane's channel by another client of a shared Redis (a plain socket,
/// bytes built by hand from the documented wire format): WebSocket clients of every node stay connected, and each
/// node's counters say what it refused.
/// </summary>
[TestFixture]
public sealed class CraftedFrameTests
{
    private RedisServerProcess _redis = null!;

    [OneTimeSetUp]
    public async Task StartRedis() => _redis = await RedisServerProcess.StartNewAsync();

    [OneTimeTearDown]
    public void StopRedis() => _redis?.Dispose();

    [Test]
    public async Task RawCloseFramePublishedByAnotherClientLeavesWebSocketClientsOfEveryNodeConnected()
    {
        await using var cluster = await WsCluster.StartAsync(_redis, new RedisBackplaneOptions());
        // A WebSocket close frame (FIN, opcode 8, status 1000), as a frame of kind Raw for every session.
        var close = new byte[] { 0x88, 0x02, 0x03, 0xE8 };

        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 0, close)), Is.EqualTo(3), "the three nodes subscribed");
        await cluster.AssertClientsGetMarkerNextAsync();
        foreach (var node in new[] { cluster.A, cluster.B })
        {
            Assert.That(node.RefusedFor(BackplaneRefusal.InvalidFrames), Is.EqualTo(1), "the close frame refused");
            Assert.That(node.Refused, Is.EqualTo(1));
            Assert.That(node.Received, Is.EqualTo(1), "the marker only");
        }
    }

    [Test]
    public async Task TextWithInvalidUtf8PublishedByAnotherClientNeverReachesAClient()
    {
        await using var cluster = await WsCluster.StartAsync(_redis, new RedisBackplaneOptions());

        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 1, [0x68, 0xC3, 0x28, 0xFF])), Is.EqualTo(3));
        // The same bytes inside a text frame of kind Raw.
        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 0, [0x81, 0x04, 0x68, 0xC3, 0x28, 0xFF])), Is.EqualTo(3));
        await cluster.AssertClientsGetMarkerNextAsync();
        foreach (var node in new[] { cluster.A, cluster.B })
        {
            Assert.That(node.RefusedFor(BackplaneRefusal.InvalidText), Is.EqualTo(2), "both texts refused");
            Assert.That(node.Refused, Is.EqualTo(2));
        }
    }

    [Test]
    public async Task UnknownKindsAndBytesThatAreNoFrameAreRefusedAndCounted()
    {
        await using var cluster = await WsCluster.StartAsync(_redis, new RedisBackplaneOptions());

        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 3, "kind 3"u8.ToArray())), Is.EqualTo(3));
        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 255, "kind 255"u8.ToArray())), Is.EqualTo(3));
        Assert.That(await cluster.PublishCraftedAsync("not a frame"u8.ToArray()), Is.EqualTo(3));
        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 1, "target 9"u8.ToArray(), target: 9)), Is.EqualTo(3));
        await cluster.AssertClientsGetMarkerNextAsync();
        foreach (var node in new[] { cluster.A, cluster.B })
        {
            Assert.That(node.RefusedFor(BackplaneRefusal.Kind), Is.EqualTo(2), "kinds 3 and 255");
            Assert.That(node.RefusedFor(BackplaneRefusal.Malformed), Is.EqualTo(2), "no frame, unknown target");
        }
    }

    [Test]
    public async Task WholeDataFramesMulticastRawOnOneNodeReachTheOtherNodesClientsAsMessages()
    {
        await using var cluster = await WsCluster.StartAsync(_redis, new RedisBackplaneOptions());
        // NetCoreServer's way: whole frames through Multicast. A text frame, then a binary message in two fragments.
        byte[] frames = [0x81, 0x03, (byte)'o', (byte)'n', (byte)'e', 0x02, 0x02, 1, 2, 0x80, 0x02, 3, 4];

        Assert.That(cluster.Third.Multicast(frames), Is.True);
        // Data frames followed by a ping: the whole frame is refused, its text included.
        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 0, [0x81, 0x01, (byte)'x', 0x89, 0x00])), Is.EqualTo(3));
        // A frame cut short, and a message never finished.
        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 0, [0x82, 0x05, 1, 2])), Is.EqualTo(3));
        Assert.That(await cluster.PublishCraftedAsync(Crafted(kind: 0, [0x02, 0x01, 1])), Is.EqualTo(3));

        Assert.That(await cluster.ReceiveAsync(0), Is.EqualTo((WebSocketMessageType.Text, "one")));
        Assert.That(await cluster.ReceiveAsync(1), Is.EqualTo((WebSocketMessageType.Text, "one")));
        Assert.That(await cluster.ReceiveBytesAsync(0), Is.EqualTo((WebSocketMessageType.Binary, new byte[] { 1, 2, 3, 4 })));
        Assert.That(await cluster.ReceiveBytesAsync(1), Is.EqualTo((WebSocketMessageType.Binary, new byte[] { 1, 2, 3, 4 })));
        await cluster.AssertClientsGetMarkerNextAsync();
        foreach (var node in new[] { cluster.A, cluster.B })
        {
            Assert.That(node.RefusedFor(BackplaneRefusal.InvalidFrames), Is.EqualTo(3));
            Assert.That(node.Received, Is.EqualTo(2), "the frames and the marker");
        }
    }

    [Test]
    public async Task HttpServerNodeWritesNothingFromTheChannelIntoItsConnections()
    {
        var options = new RedisBackplaneOptions { Channel = "test:" + Guid.NewGuid().ToString("N") };
        using var server = new NotFoundServer();
        Assert.That(server.Start(), Is.True);
        await using var backplane = await RedisBackplane.AttachAsync(server, _redis.Configuration, options);
        using var client = new System.Net.Sockets.TcpClient();
        await client.ConnectAsync(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
        await Wait.Until(() => server.ConnectedSessions == 1, "the HTTP session registered");
        using var attacker = await RawRedisClient.ConnectAsync(_redis.Port);

        var answer = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nowned"u8.ToArray();
        foreach (var kind in new byte[] { 0, 1, 2 })
            Assert.That(await attacker.PublishAsync(options.Channel, Crafted(kind, answer)), Is.EqualTo(1));
        await Wait.Until(() => backplane.Refused == 3, "the three frames refused");

        var stream = client.GetStream();
        await stream.WriteAsync("GET /nothing-here HTTP/1.1\r\nHost: localhost\r\n\r\n"u8.ToArray());
        using var reader = new StreamReader(stream);
        using var cancel = new CancellationTokenSource(Wait.Default);
        Assert.That(await reader.ReadLineAsync(cancel.Token), Does.StartWith("HTTP/1.1 404"), "the server's own answer first");
        Assert.That(backplane.RefusedFor(BackplaneRefusal.Kind), Is.EqualTo(3));
        Assert.That(backplane.Received, Is.Zero);
    }

    /// <summary>An HTTP server answering every request 404.</summary>
    private sealed class NotFoundServer() : HttpServer(IPAddress.Loopback, 0)
    {
        protected override TcpSession CreateSession() => new Session(this);

        private sealed class Session(HttpServer server) : HttpSession(server)
        {
            protected override void OnReceivedRequest(HttpRequest request) => SendResponseAsync(Response.MakeErrorResponse(404, "not here"));
        }
    }

    /// <summary>A frame of the documented format: version 1, target all, the kind, a node no one runs, sequence 1.</summary>
    internal static byte[] Crafted(byte kind, byte[] payload, byte version = 1, byte target = 0)
    {
        var frame = new byte[28 + payload.Length];
        frame[0] = version;
        frame[1] = target;
        frame[2] = kind;
        Guid.NewGuid().TryWriteBytes(frame.AsSpan(4, 16));
        BinaryPrimitives.WriteUInt64LittleEndian(frame.AsSpan(20, 8), 1);
        payload.CopyTo(frame.AsSpan(28));
        return frame;
    }

    /// <summary>
    /// Two WsServer nodes with a client each, and a third node without clients whose marker text, multicast after a
    /// crafted frame, reaches A and B through Redis behind it (one channel, one order).
    /// </summary>
    internal sealed class WsCluster : IAsyncDisposable
    {
        private readonly RedisServerProcess _redis;
        private readonly UpgradeCountingWsServer[] _servers = [new(), new(), new()];
        private readonly RedisBackplane?[] _backplanes = new RedisBackplane?[3];
        private readonly ClientWebSocket?[] _clients = new ClientWebSocket?[2];
        private RawRedisClient? _attacker;

        private WsCluster(RedisServerProcess redis, string channel)
        {
            _redis = redis;
            Channel = channel;
        }

        public string Channel { get; }

        public RedisBackplane A => _backplanes[0]!;

        public RedisBackplane B => _backplanes[1]!;

        /// <summary>The third node's server, whose clients are none.</summary>
        public UpgradeCountingWsServer Third => _servers[2];

        public async Task<(WebSocketMessageType Type, string Text)> ReceiveAsync(int client)
        {
            var (type, bytes) = await ReceiveBytesAsync(client);
            return (type, System.Text.Encoding.UTF8.GetString(bytes));
        }

        public Task<(WebSocketMessageType Type, byte[] Bytes)> ReceiveBytesAsync(int client)
            => WebSocketTests.ReceiveAsync(_clients[client]!, client == 0 ? "node A's client" : "node B's client");

        public static async Task<WsCluster> StartAsync(RedisServerProcess redis, RedisBackplaneOptions options)
        {
            options.Channel = "test:" + Guid.NewGuid().ToString("N");
            var cluster = new WsCluster(redis, options.Channel);
            try
            {
                for (var i = 0; i < 3; i++)
                {
                    Assert.That(cluster._servers[i].Start(), Is.True);
                    cluster._backplanes[i] = await RedisBackplane.AttachAsync(cluster._servers[i], redis.Configuration, options);
                }
                for (var i = 0; i < 2; i++)
                    cluster._clients[i] = await WebSocketTests.ConnectAsync(cluster._servers[i]);
                cluster._attacker = await RawRedisClient.ConnectAsync(redis.Port);
            }
            catch
            {
                await cluster.DisposeAsync();
                throw;
            }
            return cluster;
        }

        public Task<long> PublishCraftedAsync(byte[] frame) => _attacker!.PublishAsync(Channel, frame);

        /// <summary>The third node multicasts "marker"; it must be the next message of both clients, still open.</summary>
        public async Task AssertClientsGetMarkerNextAsync()
        {
            Assert.That(_servers[2].MulticastText("marker"), Is.True);
            for (var i = 0; i < 2; i++)
            {
                var where = i == 0 ? "node A's client" : "node B's client";
                var (type, bytes) = await WebSocketTests.ReceiveAsync(_clients[i]!, where);
                Assert.That((type, System.Text.Encoding.UTF8.GetString(bytes)), Is.EqualTo((WebSocketMessageType.Text, "marker")), $"the next message at {where}");
                Assert.That(_clients[i]!.State, Is.EqualTo(WebSocketState.Open), where);
            }
        }

        public async ValueTask DisposeAsync()
        {
            _attacker?.Dispose();
            foreach (var client in _clients)
                client?.Dispose();
            foreach (var backplane in _backplanes)
            {
                if (backplane != null)
                    await backplane.DisposeAsync();
            }
            foreach (var server in _servers)
                server.Dispose();
        }
    }
}
