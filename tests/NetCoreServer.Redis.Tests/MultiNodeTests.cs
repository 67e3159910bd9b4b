using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>Several server nodes in this process, each with its own backplane, over one real redis-server.</summary>
[TestFixture]
public sealed class MultiNodeTests
{
    private RedisServerProcess _redis = null!;

    [OneTimeSetUp]
    public async Task StartRedis() => _redis = await RedisServerProcess.StartNewAsync();

    [OneTimeTearDown]
    public void StopRedis() => _redis?.Dispose();

    // A channel of its own per test, so no test hears another's nodes.
    private static RedisBackplaneOptions Options() => new() { Channel = "test:" + Guid.NewGuid().ToString("N") };

    [Test]
    public async Task MulticastOnOneNodeReachesEveryClientOfThreeNodesOnce()
    {
        var options = Options();
        await using var a = await LineNode.StartAsync(_redis.Configuration, options);
        await using var b = await LineNode.StartAsync(_redis.Configuration, options);
        await using var c = await LineNode.StartAsync(_redis.Configuration, options);
        var clients = new List<LineClient>();
        foreach (var node in new[] { a, b, c })
        {
            clients.Add(await node.ConnectAsync());
            clients.Add(await node.ConnectAsync());
        }

        const int count = 100;
        for (var i = 0; i < count; i++)
            Assert.That(a.Server.Multicast($"a{i}\n"), Is.True);
        await Wait.Until(() => b.Backplane.Received == count && c.Backplane.Received == count, "B and C receiving A's 100 messages");
        // A marker from B through Redis: behind A's own echoes on the channel, so a duplicate would show before it.
        b.Server.Multicast("end\n");

        var expected = Enumerable.Range(0, count).Select(i => $"a{i}").Append("end").ToList();
        foreach (var client in clients)
            Assert.That(await client.ReadUntilAsync("end", "A's messages then B's end"), Is.EqualTo(expected));
        Assert.Multiple(() =>
        {
            Assert.That(a.Backplane.Published, Is.EqualTo(count));
            Assert.That(a.Backplane.Received, Is.EqualTo(1), "A ignores its own messages and gets B's end");
            Assert.That(c.Backplane.Received, Is.EqualTo(count + 1));
            Assert.That(a.Backplane.Dropped + b.Backplane.Dropped + c.Backplane.Dropped, Is.Zero);
            Assert.That(a.Backplane.Lost + b.Backplane.Lost + c.Backplane.Lost, Is.Zero);
        });
    }

    [Test]
    public async Task ConcurrentPublishersKeepTheirOwnOrderOnEveryNode()
    {
        var options = Options();
        var nodes = new List<LineNode>();
        try
        {
            for (var n = 0; n < 3; n++)
                nodes.Add(await LineNode.StartAsync(_redis.Configuration, options));
            var clients = new List<LineClient>();
            foreach (var node in nodes)
                clients.Add(await node.ConnectAsync());

            const int each = 200;
            await Task.WhenAll(nodes.Select((node, n) => Task.Run(() =>
            {
                for (var i = 0; i < each; i++)
                    node.Server.Multicast($"{n}:{i}\n");
            })));
            await Wait.Until(() => nodes.All(node => node.Backplane.Received == 2 * each), "each node receiving the other two nodes' messages");
            nodes[0].Server.Multicast("end\n");

            foreach (var client in clients)
            {
                var lines = await client.ReadUntilAsync("end", "every node's messages then the end");
                Assert.That(lines, Has.Count.EqualTo(3 * each + 1));
                for (var n = 0; n < 3; n++)
                {
                    var prefix = $"{n}:";
                    Assert.That(lines.Where(l => l.StartsWith(prefix, StringComparison.Ordinal)),
                        Is.EqualTo(Enumerable.Range(0, each).Select(i => $"{n}:{i}")), $"node {n}'s messages in order, once");
                }
            }
        }
        finally
        {
            foreach (var node in nodes)
                await node.DisposeAsync();
        }
    }

    [Test]
    public async Task GroupMulticastReachesMembersOnEveryNodeAndDisconnectLeavesTheGroups()
    {
        var options = Options();
        await using var a = await LineNode.StartAsync(_redis.Configuration, options);
        await using var b = await LineNode.StartAsync(_redis.Configuration, options);
        var a1 = await a.ConnectAsync();
        var a2 = await a.ConnectAsync();
        var b1 = await b.ConnectAsync();
        var b2 = await b.ConnectAsync();
        Assert.That(await a1.CommandAsync("join room"), Is.EqualTo("joined True"));
        Assert.That(await b1.CommandAsync("join room"), Is.EqualTo("joined True"));
        Assert.That(await b1.CommandAsync("join other"), Is.EqualTo("joined True"));
        Assert.That(await b1.CommandAsync("join room"), Is.EqualTo("joined False"), "joining twice");

        Assert.That(a.Backplane.MulticastToGroup("room", "g-a\n", MulticastKind.Raw), Is.True);
        Assert.That(b.Backplane.MulticastToGroup("room", "g-b\n", MulticastKind.Raw), Is.True);
        await Wait.Until(() => a.Backplane.Received == 1 && b.Backplane.Received == 1, "each node receiving the other's group message");
        a.Server.Multicast("end\n");
        await Wait.Until(() => b.Backplane.Received == 2, "B receiving A's end");

        Assert.That(await a1.ReadUntilAsync("end", "room messages at a1"), Is.EqualTo(new[] { "g-a", "g-b", "end" }));
        var atB1 = await b1.ReadUntilAsync("end", "room messages at b1");
        Assert.That(atB1.Take(2), Is.EquivalentTo(new[] { "g-a", "g-b" }));
        Assert.That(atB1.Skip(2), Is.EqualTo(new[] { "end" }));
        Assert.That(await a2.ReadLineAsync("end at a2"), Is.EqualTo("end"), "a2 is in no group");
        Assert.That(await b2.ReadLineAsync("end at b2"), Is.EqualTo("end"), "b2 is in no group");

        // One session on whichever node holds it.
        var b2Id = Guid.Parse((await b2.CommandAsync("id"))[3..]);
        Assert.That(a.Backplane.SendToSession(b2Id, Encoding.UTF8.GetBytes("direct\n")), Is.True);
        Assert.That(await b2.ReadLineAsync("the direct message at b2"), Is.EqualTo("direct"));

        // Leaving: explicitly, and by disconnecting.
        Assert.That(await a1.CommandAsync("leave room"), Is.EqualTo("left True"));
        Assert.That(a.Backplane.SessionsInGroups, Is.Zero);
        var b1Id = Guid.Parse((await b1.CommandAsync("id"))[3..]);
        Assert.That(b.Backplane.GroupsOf(b1Id), Is.EquivalentTo(new[] { "room", "other" }));
        b1.Dispose();
        await Wait.Until(() => b.Backplane.GroupsOf(b1Id).Count == 0 && b.Backplane.SessionsInGroups == 0, "b1's groups left when it disconnected");
    }

    [Test]
    public async Task AMessageOverTheSizeLimitIsDeliveredLocallyAndCountedAsDropped()
    {
        var options = Options();
        options.MaxMessageSize = 16;
        await using var a = await LineNode.StartAsync(_redis.Configuration, options);
        await using var b = await LineNode.StartAsync(_redis.Configuration, options);
        var atA = await a.ConnectAsync();
        var atB = await b.ConnectAsync();

        a.Server.Multicast("first\n");
        a.Server.Multicast("seventeen bytes!\n");
        a.Server.Multicast("sixteen bytes!!\n");
        Assert.That(await atA.ReadLineAsync("the first line, locally"), Is.EqualTo("first"));
        Assert.That(await atB.ReadLineAsync("the first line at B"), Is.EqualTo("first"));
        Assert.That(await atA.ReadLineAsync("the large line, locally"), Is.EqualTo("seventeen bytes!"));
        Assert.That(await atA.ReadLineAsync("the small line, locally"), Is.EqualTo("sixteen bytes!!"));
        Assert.That(await atB.ReadLineAsync("only the small line at B"), Is.EqualTo("sixteen bytes!!"));
        Assert.That(a.Backplane.Dropped, Is.EqualTo(1));
        // Counted once Redis acknowledged the PUBLISH, which may come after B already has the message.
        await Wait.Until(() => a.Backplane.Published == 2, "both small messages counted as published");
        Assert.That(b.Backplane.Lost, Is.EqualTo(1), "the dropped message's number is a gap at B");
    }

    [Test]
    public async Task ANodeStoppingMidStreamLeavesAnInOrderPrefixAndTheOthersGoOn()
    {
        var options = Options();
        var a = await LineNode.StartAsync(_redis.Configuration, options);
        await using var b = await LineNode.StartAsync(_redis.Configuration, options);
        await using var c = await LineNode.StartAsync(_redis.Configuration, options);
        var client = await c.ConnectAsync();
        // Read while A publishes: a client that waited would be a slow consumer, whose skipped lines are gaps too.
        var reading = Task.Run(() => client.ReadUntilAsync("end", "A's stream then B's end"));

        var sent = 0;
        var publishing = Task.Run(() =>
        {
            var paced = System.Diagnostics.Stopwatch.StartNew();
            for (var i = 0; i < 100_000; i++)
            {
                if (!a.Server.Multicast($"a{i}\n"))
                    return;
                sent++;
                // Multicast never waits; a loaded machine's Redis falls behind, and past its queue bound A drops
                // (counted, a gap at C). This test is about a stop, not overload: keep A's queue short (for 60 s at most).
                while (a.Backplane.QueuedMessages > 1024 && paced.Elapsed < TimeSpan.FromSeconds(60))
                    Thread.Sleep(1);
                if (i % 64 == 0)
                    Thread.Sleep(1);
            }
        });
        await Wait.Until(() => c.Backplane.Received >= 200, "C receiving A's stream");
        await a.DisposeAsync();
        await Wait.For(publishing, "A's multicast loop ending when its server stopped");

        b.Server.Multicast("end\n");
        var lines = await Wait.For(reading, "A's stream then B's end", TimeSpan.FromSeconds(60));
        var fromA = lines.Take(lines.Count - 1).ToList();
        Assert.That(fromA, Is.EqualTo(Enumerable.Range(0, fromA.Count).Select(i => $"a{i}")), "a gapless prefix, in order, once");
        Assert.That(fromA, Has.Count.GreaterThanOrEqualTo(200));
        Assert.That(a.Backplane.Published + a.Backplane.Dropped, Is.EqualTo(sent), "every multicast of A published or counted as dropped");
        Assert.That(c.Backplane.Lost, Is.Zero);
        TestContext.Out.WriteLine($"A multicast {sent}, published {a.Backplane.Published}, dropped {a.Backplane.Dropped}; C got {fromA.Count}");
    }
}
