using System;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using StackExchange.Redis;

namespace NetCoreServer.Redis.Tests;

/// <summary>Redis unreachable, killed, restarted and paused under running nodes: each test has its own redis-server.</summary>
[TestFixture]
public sealed class FailureTests
{
    private static RedisBackplaneOptions Options() => new()
    {
        Channel = "test:" + Guid.NewGuid().ToString("N"),
        ConnectTimeout = TimeSpan.FromSeconds(1),
    };

    [Test]
    public void AttachThrowsAClearExceptionWhenRedisIsUnreachable()
    {
        var port = RedisServerProcess.FreePort();
        using var server = new LineServer();
        Assert.That(server.Start(), Is.True);
        var watch = Stopwatch.StartNew();
        var error = Assert.ThrowsAsync<RedisBackplaneException>(() => RedisBackplane.AttachAsync(server, $"127.0.0.1:{port}", Options()));
        Assert.That(error!.Message, Does.Contain($"127.0.0.1:{port}").And.Contain(nameof(RedisBackplaneOptions.StartLocalOnlyIfUnreachable)));
        Assert.That(watch.Elapsed, Is.LessThan(TimeSpan.FromSeconds(15)), "bounded by the connect timeout");
        Assert.That(server.MulticastRelay, Is.Null, "nothing attached");
    }

    [Test]
    public async Task LocalOnlyStartWorksLocallyAndJoinsTheClusterWhenRedisComesUp()
    {
        using var redis = RedisServerProcess.OnFreePort();
        var options = Options();
        options.StartLocalOnlyIfUnreachable = true;
        await using var a = await LineNode.StartAsync(redis.Configuration, options);
        var local = await a.ConnectAsync();
        Assert.That(a.Backplane.IsConnected, Is.False);

        Assert.That(a.Server.Multicast("alone\n"), Is.True);
        Assert.That(await local.ReadLineAsync("the local multicast without Redis"), Is.EqualTo("alone"));
        await Wait.Until(() => a.Backplane.Dropped == 1, "the unpublished message counted as dropped");

        await redis.StartAsync();
        await using var b = await LineNode.StartAsync(redis.Configuration, new RedisBackplaneOptions { Channel = options.Channel });
        await Wait.Until(() => a.Backplane.IsConnected, "A connected and subscribed once Redis is up");
        await AssertRemoteDeliveryResumesAsync(a, b, await b.ConnectAsync());
    }

    [Test]
    public async Task RedisRestartKeepsLocalDeliveryAndResumesRemoteDeliveryCountingWhatWasLost()
    {
        using var redis = await RedisServerProcess.StartNewAsync();
        var options = Options();
        await using var a = await LineNode.StartAsync(redis.Configuration, options);
        await using var b = await LineNode.StartAsync(redis.Configuration, options);
        var atA = await a.ConnectAsync();
        var atB = await b.ConnectAsync();
        a.Server.Multicast("before\n");
        Assert.That(await atB.ReadLineAsync("a message before the restart"), Is.EqualTo("before"));
        Assert.That(await atA.ReadLineAsync("the local copy"), Is.EqualTo("before"));

        redis.Kill();
        await Wait.Until(() => !a.Backplane.IsConnected && !b.Backplane.IsConnected, "both nodes seeing Redis gone");
        const int during = 10;
        for (var i = 0; i < during; i++)
            Assert.That(a.Server.Multicast($"during{i}\n"), Is.True, "Multicast while Redis is down");
        for (var i = 0; i < during; i++)
            Assert.That(await atA.ReadLineAsync("local delivery while Redis is down"), Is.EqualTo($"during{i}"));
        await Wait.Until(() => a.Backplane.Dropped == during, "A counting the messages it could not publish");

        await redis.StartAsync();
        await Wait.Until(() => a.Backplane.IsConnected && b.Backplane.IsConnected, "both nodes reconnected", TimeSpan.FromSeconds(30));
        await AssertRemoteDeliveryResumesAsync(a, b, atB);
        TestContext.Out.WriteLine($"A: published {a.Backplane.Published}, dropped {a.Backplane.Dropped}, reconnects {a.Backplane.Reconnects}; "
            + $"B: received {b.Backplane.Received}, lost {b.Backplane.Lost}, reconnects {b.Backplane.Reconnects}");
        Assert.Multiple(() =>
        {
            Assert.That(a.Backplane.Reconnects, Is.GreaterThanOrEqualTo(1));
            Assert.That(b.Backplane.Reconnects, Is.GreaterThanOrEqualTo(1));
            // Also counted: probes Redis took from A before B had subscribed again.
            Assert.That(b.Backplane.Lost, Is.GreaterThanOrEqualTo(a.Backplane.Dropped), "B's gaps include what A dropped");
            Assert.That(a.Backplane.Dropped, Is.GreaterThanOrEqualTo(during));
        });
    }

    [Test]
    public async Task APausedRedisNeverBlocksMulticastAndTheBoundedQueueCountsDrops()
    {
        using var redis = await RedisServerProcess.StartNewAsync();
        var options = Options();
        options.MaxQueuedMessages = 100;
        await using var a = await LineNode.StartAsync(redis.Configuration, options);
        var local = await a.ConnectAsync();
        redis.Signal(pause: true);
        try
        {
            const int count = 5000;
            var watch = Stopwatch.StartNew();
            for (var i = 0; i < count; i++)
                a.Server.Multicast($"m{i}\n");
            watch.Stop();
            Assert.That(watch.Elapsed, Is.LessThan(TimeSpan.FromSeconds(5)), "Multicast does not wait for Redis");
            for (var i = 0; i < count; i++)
                Assert.That(await local.ReadLineAsync("local delivery while Redis does not answer"), Is.EqualTo($"m{i}"));
            Assert.That(a.Backplane.QueuedMessages, Is.LessThanOrEqualTo(100));
            Assert.That(a.Backplane.Dropped, Is.GreaterThanOrEqualTo(count - 100 - 256), "beyond the queue and one batch in flight");
        }
        finally
        {
            redis.Signal(pause: false);
        }
    }

    [Test]
    public async Task ASubscriberThatStopsReadingIsCutOffByRedisWithoutSlowingTheOtherNodes()
    {
        using var redis = await RedisServerProcess.StartNewAsync();
        var options = Options();
        await using var a = await LineNode.StartAsync(redis.Configuration, options);
        await using var b = await LineNode.StartAsync(redis.Configuration, options);
        var atB = await b.ConnectAsync();
        await using var admin = await ConnectionMultiplexer.ConnectAsync(redis.Configuration + ",allowAdmin=true");
        var server = admin.GetServer(redis.Configuration);
        // Redis's own guard against a slow subscriber, small here so the test needs megabytes, not tens of them.
        await server.ConfigSetAsync("client-output-buffer-limit", "pubsub 1mb 256kb 1");

        // A stuck node: subscribed on the channel, never reads.
        using var stuck = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 4096 };
        await stuck.ConnectAsync(IPAddress.Loopback, redis.Port);
        await stuck.SendAsync(Encoding.ASCII.GetBytes($"SUBSCRIBE {options.Channel}\r\n"));
        await Wait.Until(() => server.SubscriptionSubscriberCount(RedisChannel.Literal(options.Channel)) == 3, "three subscribers");

        const int count = 8000;
        var line = new string('x', 1000);
        var watch = Stopwatch.StartNew();
        for (var i = 0; i < count; i++)
        {
            a.Server.Multicast($"{i} {line}\n");
            while (a.Backplane.QueuedMessages > 1000)
                await Task.Delay(1);
        }
        for (var i = 0; i < count; i++)
            Assert.That(await atB.ReadLineAsync($"message {i} at B"), Does.StartWith($"{i} "));
        TestContext.Out.WriteLine($"{count} messages of 1 KB through Redis to B in {watch.ElapsedMilliseconds} ms");
        Assert.That(a.Backplane.Dropped, Is.Zero);
        Assert.That(b.Backplane.Lost, Is.Zero);
        await Wait.Until(() => server.SubscriptionSubscriberCount(RedisChannel.Literal(options.Channel)) == 2, "Redis cutting the stuck subscriber off");
    }

    /// <summary>Publishes from A until B hears one (B's subscription may come back after its connection), bounded in time.</summary>
    private static async Task AssertRemoteDeliveryResumesAsync(LineNode a, LineNode b, LineClient atB)
    {
        var before = b.Backplane.Received;
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
        for (var probe = 0; b.Backplane.Received == before; probe++)
        {
            if (DateTime.UtcNow > deadline)
                Assert.Fail("B heard none of A's messages within 30 s of Redis coming back");
            a.Server.Multicast($"after{probe}\n");
            await Task.Delay(100);
        }
        Assert.That(await atB.ReadLineAsync("a message after the restart"), Does.StartWith("after"));
    }
}
