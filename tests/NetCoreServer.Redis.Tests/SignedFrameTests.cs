using System;
using System.Buffers.Binary;
using System.Collections.Generic;
using System.Net.WebSockets;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using StackExchange.Redis;

namespace NetCoreServer.Redis.Tests;

/// <summary>
/// Nodes that share a secret: unsigned, forged, stale and replayed frames are refused and counted, and a secret is
/// rolled out and changed one node at a time while messages keep flowing both ways.
/// </summary>
[TestFixture]
public sealed class SignedFrameTests
{
    private RedisServerProcess _redis = null!;

    [OneTimeSetUp]
    public async Task StartRedis() => _redis = await RedisServerProcess.StartNewAsync();

    [OneTimeTearDown]
    public void StopRedis() => _redis?.Dispose();

    [Test]
    public async Task UnsignedForgedAndReplayedFramesAreRefusedWhenNodesShareASecret()
    {
        await using var cluster = await CraftedFrameTests.WsCluster.StartAsync(_redis, new RedisBackplaneOptions { Secret = NewSecret() });
        await using var listener = await ConnectionMultiplexer.ConnectAsync(_redis.Configuration);
        var captured = await listener.GetSubscriber().SubscribeAsync(RedisChannel.Literal(cluster.Channel));

        Assert.That(cluster.Third.MulticastText("first"), Is.True);
        Assert.That(await cluster.ReceiveAsync(0), Is.EqualTo((WebSocketMessageType.Text, "first")));
        Assert.That(await cluster.ReceiveAsync(1), Is.EqualTo((WebSocketMessageType.Text, "first")));
        byte[] signed;
        using (var cancel = new CancellationTokenSource(Wait.Default))
            signed = (byte[])(await captured.ReadAsync(cancel.Token)).Message!;
        Assert.That(signed[0], Is.EqualTo(2), "a signed frame on the channel");

        Assert.That(await cluster.PublishCraftedAsync(CraftedFrameTests.Crafted(kind: 1, "unsigned"u8.ToArray())), Is.EqualTo(4));
        var forged = CraftedFrameTests.Crafted(kind: 1, new byte[8 + 44]);
        forged[0] = 2;
        "forged!!"u8.CopyTo(forged.AsSpan(28));
        RandomNumberGenerator.Fill(forged.AsSpan(forged.Length - 36));
        Assert.That(await cluster.PublishCraftedAsync(forged), Is.EqualTo(4));
        Assert.That(await cluster.PublishCraftedAsync(signed), Is.EqualTo(4), "the captured frame again");
        await cluster.AssertClientsGetMarkerNextAsync();

        foreach (var node in new[] { cluster.A, cluster.B })
        {
            Assert.That(node.RefusedFor(BackplaneRefusal.Unsigned), Is.EqualTo(1));
            Assert.That(node.RefusedFor(BackplaneRefusal.Signature), Is.EqualTo(1));
            Assert.That(node.RefusedFor(BackplaneRefusal.Replayed), Is.EqualTo(1));
            Assert.That(node.Received, Is.EqualTo(2), "first and the marker");
        }
    }

    [Test]
    public async Task FrameSignedWithTheSecretIsTakenOnlyWhileItsTimeIsWithinMaxFrameAge()
    {
        var secret = NewSecret();
        await using var cluster = await CraftedFrameTests.WsCluster.StartAsync(_redis, new RedisBackplaneOptions { Secret = secret });
        var now = DateTimeOffset.UtcNow;

        Assert.That(await cluster.PublishCraftedAsync(SignByHand(secret, cluster.Channel, "fresh", now)), Is.EqualTo(3));
        Assert.That(await cluster.PublishCraftedAsync(SignByHand(secret, cluster.Channel, "stale", now.AddSeconds(-60))), Is.EqualTo(3));
        Assert.That(await cluster.PublishCraftedAsync(SignByHand(secret, cluster.Channel, "future", now.AddSeconds(60))), Is.EqualTo(3));
        // The right secret bound to another cluster's channel.
        Assert.That(await cluster.PublishCraftedAsync(SignByHand(secret, "another:channel", "elsewhere", now)), Is.EqualTo(3));

        Assert.That(await cluster.ReceiveAsync(0), Is.EqualTo((WebSocketMessageType.Text, "fresh")));
        Assert.That(await cluster.ReceiveAsync(1), Is.EqualTo((WebSocketMessageType.Text, "fresh")));
        await cluster.AssertClientsGetMarkerNextAsync();
        foreach (var node in new[] { cluster.A, cluster.B })
        {
            Assert.That(node.RefusedFor(BackplaneRefusal.Replayed), Is.EqualTo(2), "60 s old, 60 s ahead (MaxFrameAge 30 s)");
            Assert.That(node.RefusedFor(BackplaneRefusal.Signature), Is.EqualTo(1), "another channel");
        }
    }

    [Test]
    public async Task SecretRollsOutAndChangesNodeByNodeWithMessagesFlowingBothWays()
    {
        var channel = "test:" + Guid.NewGuid().ToString("N");
        var (k1, k2) = (NewSecret(), NewSecret());
        RedisBackplaneOptions Options(byte[]? secret, bool acceptUnsigned = false, byte[]? accepted = null)
        {
            var options = new RedisBackplaneOptions { Channel = channel, Secret = secret, AcceptUnsignedFrames = acceptUnsigned };
            if (accepted != null)
                options.AcceptedSecrets.Add(accepted);
            return options;
        }

        // Each step changes one node (a restart with new settings); the other keeps running.
        var none = Options(null);
        var k1Open = Options(k1, acceptUnsigned: true);
        var k1Only = Options(k1);
        var k1ThenK2 = Options(k1, accepted: k2);
        var k2ThenK1 = Options(k2, accepted: k1);
        var k2Only = Options(k2);
        var steps = new (RedisBackplaneOptions A, RedisBackplaneOptions B)[]
        {
            (none, none),
            (k1Open, none), (k1Open, k1Open), (k1Only, k1Open), (k1Only, k1Only),
            (k1ThenK2, k1Only), (k1ThenK2, k1ThenK2), (k2ThenK1, k1ThenK2), (k2ThenK1, k2ThenK1), (k2Only, k2ThenK1), (k2Only, k2Only),
        };

        using var serverA = new LineServer();
        using var serverB = new LineServer();
        Assert.That(serverA.Start() && serverB.Start(), Is.True);
        using var clientA = await LineClient.ConnectAsync(((System.Net.IPEndPoint)serverA.Endpoint).Port);
        using var clientB = await LineClient.ConnectAsync(((System.Net.IPEndPoint)serverB.Endpoint).Port);
        await Wait.Until(() => serverA.ConnectedSessions == 1 && serverB.ConnectedSessions == 1, "both clients registered");
        RedisBackplane? a = null, b = null;
        try
        {
            for (var step = 0; step < steps.Length; step++)
            {
                if (step == 0 || !ReferenceEquals(steps[step].A, steps[step - 1].A))
                    a = await Reattach(a, serverA, steps[step].A);
                if (step == 0 || !ReferenceEquals(steps[step].B, steps[step - 1].B))
                    b = await Reattach(b, serverB, steps[step].B);

                Assert.That(serverA.Multicast($"a{step}\n"), Is.True);
                Assert.That(await clientB.ReadLineAsync($"a{step} at B"), Is.EqualTo($"a{step}"), $"step {step}: A to B");
                Assert.That(serverB.Multicast($"b{step}\n"), Is.True);
                Assert.That(await clientA.ReadLineAsync($"a{step} at A"), Is.EqualTo($"a{step}"));
                Assert.That(await clientA.ReadLineAsync($"b{step} at A"), Is.EqualTo($"b{step}"), $"step {step}: B to A");
                Assert.That(await clientB.ReadLineAsync($"b{step} at B"), Is.EqualTo($"b{step}"));
                Assert.That((a!.Refused, b!.Refused), Is.EqualTo((0L, 0L)), $"step {step}: nothing refused");
            }

            // A node that skipped a step (back to k1 alone while the other signs with k2 only) is cut off both ways.
            a = await Reattach(a, serverA, k1Only);
            Assert.That(serverA.Multicast("unheard\n"), Is.True);
            Assert.That(await clientA.ReadLineAsync("unheard at A"), Is.EqualTo("unheard"));
            await Wait.Until(() => b!.RefusedFor(BackplaneRefusal.Signature) == 1, "B refusing A's k1 frame");
            Assert.That(serverB.Multicast("last\n"), Is.True);
            Assert.That(await clientB.ReadLineAsync("last at B"), Is.EqualTo("last"), "B's own line; A's was refused");
            await Wait.Until(() => a.RefusedFor(BackplaneRefusal.Signature) == 1, "A refusing B's k2 frame");
        }
        finally
        {
            if (a != null)
                await a.DisposeAsync();
            if (b != null)
                await b.DisposeAsync();
        }
    }

    [Test]
    public void SecretShorterThanSixteenBytesIsRefusedAtAttach()
    {
        using var server = new LineServer();
        var options = new RedisBackplaneOptions { Secret = new byte[15] };
        var error = Assert.ThrowsAsync<ArgumentException>(() => RedisBackplane.AttachAsync(server, _redis.Configuration, options));
        Assert.That(error!.Message, Does.Contain("Secret").And.Contain("16 bytes"));
    }

    private async Task<RedisBackplane> Reattach(RedisBackplane? old, StreamServer server, RedisBackplaneOptions options)
    {
        if (old != null)
            await old.DisposeAsync();
        return await RedisBackplane.AttachAsync(server, _redis.Configuration, options);
    }

    private static byte[] NewSecret() => RandomNumberGenerator.GetBytes(32);

    /// <summary>
    /// A text frame signed as docs/design/redis-backplane.md says, written here without the library: key =
    /// HMAC-SHA256(secret, "NetCoreServer.Redis backplane " + channel), key id = the first 4 bytes (little-endian) of
    /// HMAC-SHA256(key, "key id"), trailer = time (Unix ms, 8 bytes LE), key id, HMAC-SHA256(key, everything before it).
    /// </summary>
    private static byte[] SignByHand(byte[] secret, string channel, string text, DateTimeOffset time)
    {
        var payload = Encoding.UTF8.GetBytes(text);
        var frame = CraftedFrameTests.Crafted(kind: 1, new byte[payload.Length + 44]);
        frame[0] = 2;
        payload.CopyTo(frame.AsSpan(28));
        var key = HMACSHA256.HashData(secret, Encoding.UTF8.GetBytes("NetCoreServer.Redis backplane " + channel));
        var trailer = frame.AsSpan(frame.Length - 44);
        BinaryPrimitives.WriteInt64LittleEndian(trailer, time.ToUnixTimeMilliseconds());
        HMACSHA256.HashData(key, "key id"u8).AsSpan(0, 4).CopyTo(trailer[8..]);
        HMACSHA256.HashData(key, frame.AsSpan(0, frame.Length - 32), trailer[12..]);
        return frame;
    }
}
