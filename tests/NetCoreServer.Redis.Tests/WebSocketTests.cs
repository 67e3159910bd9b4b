using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.WebSockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>WebSocket multicasts across two WsServer nodes, read by .NET's own ClientWebSocket.</summary>
[TestFixture]
public sealed class WebSocketTests
{
    private RedisServerProcess _redis = null!;

    [OneTimeSetUp]
    public async Task StartRedis() => _redis = await RedisServerProcess.StartNewAsync();

    [OneTimeTearDown]
    public void StopRedis() => _redis?.Dispose();

    [Test]
    public async Task TextBinaryAndOneMebibyteMessagesReachClientsOfBothNodesOnceWithTheirType()
    {
        var options = new RedisBackplaneOptions { Channel = "test:" + Guid.NewGuid().ToString("N") };
        using var serverA = new UpgradeCountingWsServer();
        using var serverB = new UpgradeCountingWsServer();
        Assert.That(serverA.Start() && serverB.Start(), Is.True);
        await using var a = await RedisBackplane.AttachAsync(serverA, _redis.Configuration, options);
        await using var b = await RedisBackplane.AttachAsync(serverB, _redis.Configuration, options);
        using var atA = await ConnectAsync(serverA);
        using var atB = await ConnectAsync(serverB);

        var binary = new byte[256];
        for (var i = 0; i < binary.Length; i++)
            binary[i] = (byte)i;
        var large = new byte[1 << 20];
        new Random(25).NextBytes(large);

        Assert.That(serverA.MulticastText("héllo"), Is.True);
        Assert.That(serverA.MulticastBinary(binary), Is.True);
        Assert.That(serverA.MulticastBinary(large), Is.True);
        Assert.That(serverA.MulticastText("end"), Is.True);

        foreach (var (client, where) in new[] { (atA, "A (local)"), (atB, "B (through Redis)") })
        {
            Assert.That(await ReceiveAsync(client, where), Is.EqualTo((WebSocketMessageType.Text, Encoding.UTF8.GetBytes("héllo"))));
            Assert.That(await ReceiveAsync(client, where), Is.EqualTo((WebSocketMessageType.Binary, binary)));
            var (type, bytes) = await ReceiveAsync(client, where);
            Assert.That(type, Is.EqualTo(WebSocketMessageType.Binary));
            Assert.That(bytes.AsSpan().SequenceEqual(large), Is.True, $"the 1 MiB message whole at {where}");
            Assert.That(await ReceiveAsync(client, where), Is.EqualTo((WebSocketMessageType.Text, "end"u8.ToArray())));
        }
        // Once: B sends a marker of its own; it is the next message on both sides.
        Assert.That(serverB.MulticastText("marker"), Is.True);
        Assert.That(await ReceiveAsync(atA, "A"), Is.EqualTo((WebSocketMessageType.Text, "marker"u8.ToArray())));
        Assert.That(await ReceiveAsync(atB, "B"), Is.EqualTo((WebSocketMessageType.Text, "marker"u8.ToArray())));
        Assert.That(a.Published, Is.EqualTo(4));
        Assert.That(b.Received, Is.EqualTo(4));
    }

    [Test]
    public async Task GroupTextAndDirectBinaryMessagesReachOnlyTheirSessionsOnTheOtherNode()
    {
        var options = new RedisBackplaneOptions { Channel = "test:" + Guid.NewGuid().ToString("N") };
        using var serverA = new UpgradeCountingWsServer();
        using var serverB = new UpgradeCountingWsServer();
        Assert.That(serverA.Start() && serverB.Start(), Is.True);
        await using var a = await RedisBackplane.AttachAsync(serverA, _redis.Configuration, options);
        await using var b = await RedisBackplane.AttachAsync(serverB, _redis.Configuration, options);
        using var member = await ConnectAsync(serverB);
        var memberSession = serverB.All.Single();
        Assert.That(b.JoinGroup(memberSession, "room"), Is.True);
        using var other = new ClientWebSocket();
        using (var cancel = new CancellationTokenSource(Wait.Default))
            await other.ConnectAsync(new Uri($"ws://127.0.0.1:{((IPEndPoint)serverB.Endpoint).Port}/"), cancel.Token);
        await Wait.Until(() => serverB.Upgraded == 2, "the second upgrade seen by the server");
        var otherSession = serverB.All.Single(s => s.Id != memberSession.Id);

        Assert.That(a.MulticastToGroup("room", "to the room", MulticastKind.Text), Is.True);
        Assert.That(a.SendToSession(otherSession.Id, new byte[] { 7, 7 }, MulticastKind.Binary), Is.True);
        Assert.That(serverA.MulticastText("end"), Is.True);

        Assert.That(await ReceiveAsync(member, "the member"), Is.EqualTo((WebSocketMessageType.Text, "to the room"u8.ToArray())));
        Assert.That(await ReceiveAsync(member, "the member"), Is.EqualTo((WebSocketMessageType.Text, "end"u8.ToArray())));
        Assert.That(await ReceiveAsync(other, "the other"), Is.EqualTo((WebSocketMessageType.Binary, new byte[] { 7, 7 })));
        Assert.That(await ReceiveAsync(other, "the other"), Is.EqualTo((WebSocketMessageType.Text, "end"u8.ToArray())));
    }

    /// <summary>A .NET ClientWebSocket connected to <paramref name="server"/>, returned once the server saw the upgrade.</summary>
    internal static async Task<ClientWebSocket> ConnectAsync(UpgradeCountingWsServer server)
    {
        var client = new ClientWebSocket();
        var port = ((IPEndPoint)server.Endpoint).Port;
        using var cancel = new CancellationTokenSource(Wait.Default);
        await client.ConnectAsync(new Uri($"ws://127.0.0.1:{port}/"), cancel.Token);
        await Wait.Until(() => server.Upgraded >= 1, "the upgrade seen by the server");
        return client;
    }

    /// <summary>The next whole message <paramref name="client"/> receives; a TimeoutException naming <paramref name="where"/> when none comes.</summary>
    internal static async Task<(WebSocketMessageType Type, byte[] Bytes)> ReceiveAsync(ClientWebSocket client, string where)
    {
        using var cancel = new CancellationTokenSource(Wait.Default);
        var message = new MemoryStream();
        var buffer = new byte[64 * 1024];
        try
        {
            while (true)
            {
                var result = await client.ReceiveAsync(buffer, cancel.Token);
                message.Write(buffer, 0, result.Count);
                if (result.EndOfMessage)
                    return (result.MessageType, message.ToArray());
            }
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"Timed out waiting for a WebSocket message at {where}");
        }
    }
}
