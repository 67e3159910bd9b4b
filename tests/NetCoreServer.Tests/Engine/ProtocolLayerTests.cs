using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Engine;

/// <summary>
/// The protocol layer the engine offers HTTP and WebSocket: a parser says how much it consumed and the engine keeps
/// the rest; a message in two pieces is queued as one unit.
/// </summary>
[TestFixture]
public sealed class ProtocolLayerTests
{
    /// <summary>A line protocol: consumes one complete line per call, or nothing while the line is incomplete.</summary>
    private static Func<ReadOnlyMemory<byte>, int> Lines(ConcurrentQueue<string> lines) => data =>
    {
        var end = data.Span.IndexOf((byte)'\n');
        if (end < 0)
            return 0;
        lines.Enqueue(Encoding.ASCII.GetString(data.Span[..end]));
        return end + 1;
    };

    [Test]
    public async Task AMessageArrivingOneByteAtATimeIsHandedWholeOnceComplete()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var lines = new ConcurrentQueue<string>();
        var seen = new List<int>();
        var parse = Lines(lines);
        var both = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var host = new RecordingHost
        {
            Protocol = data =>
            {
                seen.Add(data.Length);
                var consumed = parse(data);
                if (lines.Count == 2)
                    both.TrySetResult();
                return consumed;
            },
        };
        var engine = StreamSessionEngineTests.Start(transport, host);
        foreach (var b in "hello\nworld\n"u8.ToArray())
            transport.Enqueue(new[] { b });

        engine.StartReceiving();
        await Wait.For(both.Task, "two lines parsed");

        Assert.That(lines, Is.EqualTo(new[] { "hello", "world" }));
        Assert.That(seen.Take(6), Is.EqualTo(new[] { 1, 2, 3, 4, 5, 6 }), "the parser is handed the growing prefix each time, not just the new byte");
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task ManyMessagesInOneReadAreHandedOneAfterAnother()
    {
        var transport = new InMemoryTransport();
        var lines = new ConcurrentQueue<string>();
        var host = new RecordingHost { Protocol = Lines(lines) };
        var engine = StreamSessionEngineTests.Start(transport, host);
        transport.Enqueue("a\nbb\nccc\npartial"u8.ToArray());

        engine.StartReceiving();
        await Wait.For(engine.Completion, "engine finished at the scripted end of stream");

        Assert.That(lines, Is.EqualTo(new[] { "a", "bb", "ccc" }), "every complete message, in order; the partial one is dropped at end of stream");
    }

    [Test]
    public async Task AnUpgradeHandsTheRestOfTheSameReadToTheNewProtocol()
    {
        var transport = new InMemoryTransport();
        var lines = new ConcurrentQueue<string>();
        var raw = new List<byte>();
        var host = new RecordingHost();
        var parse = Lines(lines);
        host.Protocol = data =>
        {
            var consumed = parse(data);
            if (lines.Contains("UPGRADE"))
                host.Protocol = rest => { raw.AddRange(rest.ToArray()); return rest.Length; };
            return consumed;
        };
        var engine = StreamSessionEngineTests.Start(transport, host);
        transport.Enqueue("UPGRADE\n\x01\x02\x03"u8.ToArray());
        transport.Enqueue(new byte[] { 4 });

        engine.StartReceiving();
        await Wait.For(engine.Completion, "engine finished");

        Assert.That(lines, Is.EqualTo(new[] { "UPGRADE" }));
        Assert.That(raw, Is.EqualTo(new byte[] { 1, 2, 3, 4 }), "bytes after the upgrade, from the same read and the next, reach the new protocol");
    }

    [Test]
    public async Task AMessageLongerThanTheReceiveLimitClosesTheConnectionAsAProtocolError()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var largest = 0;
        var host = new RecordingHost { Protocol = data => { largest = Math.Max(largest, data.Length); return 0; } };
        var engine = StreamSessionEngineTests.Start(transport, host, new EngineOptions { ReceiveBufferSize = 1024, ReceiveBufferLimit = 4096 });
        transport.Enqueue(new byte[10_000]);

        engine.StartReceiving();
        await Wait.For(engine.Completion, "engine closed the connection");

        Assert.That(engine.Reason, Is.EqualTo(DisconnectReason.ProtocolError));
        Assert.That(largest, Is.EqualTo(4096), "the unconsumed message grew to the receive limit and no further");
    }

    [Test]
    public async Task TwoPieceMessagesFromManyThreadsNeverInterleave()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var engine = StreamSessionEngineTests.Start(transport, new RecordingHost(), new EngineOptions { SendBufferLimit = 0 });
        const int threads = 4;
        const int messages = 2000;
        var senders = Enumerable.Range(1, threads).Select(id => Task.Run(() =>
        {
            for (var i = 0; i < messages; i++)
            {
                var length = 1 + (i % 50);
                var body = Enumerable.Repeat((byte)id, length).ToArray();
                var status = i % 2 == 0
                    ? engine.Enqueue(new[] { (byte)id, (byte)length }, body)
                    : engine.EnqueueBorrowed(new[] { (byte)id, (byte)length }, new ArraySegment<byte>(body), null);
                Assert.That(status, Is.EqualTo(SendStatus.Accepted));
            }
        })).ToArray();
        await Wait.For(Task.WhenAll(senders), "all messages queued");
        Assert.That(await Wait.For(engine.Flush(), "all messages sent"), Is.True);

        var sent = transport.Sent();
        var counts = new int[threads + 1];
        var offset = 0;
        while (offset < sent.Length)
        {
            var id = sent[offset];
            var length = sent[offset + 1];
            Assert.That(sent.AsSpan(offset + 2, length).ToArray(), Is.All.EqualTo(id), $"the body after head {id}/{length} at {offset} is its own");
            counts[id]++;
            offset += 2 + length;
        }
        Assert.That(counts.Skip(1), Is.All.EqualTo(messages), "every message arrived whole");
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task ABorrowedBodyIsReleasedOnceSentOrDropped()
    {
        var sentOwner = new Owner();
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var engine = StreamSessionEngineTests.Start(transport, new RecordingHost());
        var body = Enumerable.Range(0, 5000).Select(i => (byte)i).ToArray();
        Assert.That(engine.EnqueueBorrowed("head"u8, new ArraySegment<byte>(body), sentOwner), Is.EqualTo(SendStatus.Accepted));
        Assert.That(await Wait.For(engine.Flush(), "sent"), Is.True);
        Assert.That(transport.Sent(), Is.EqualTo("head"u8.ToArray().Concat(body).ToArray()));
        Assert.That(sentOwner.Disposed, Is.EqualTo(1), "released once, after sending");
        engine.Abort(DisconnectReason.Local);

        var droppedOwner = new Owner();
        var stuck = StreamSessionEngineTests.Start(new BlockingSendTransport(), new RecordingHost());
        stuck.Enqueue(new byte[10]);
        Assert.That(stuck.EnqueueBorrowed("head"u8, new ArraySegment<byte>(body), droppedOwner), Is.EqualTo(SendStatus.Accepted));
        stuck.Abort(DisconnectReason.Local);
        await Wait.For(stuck.Completion, "engine finished");
        Assert.That(droppedOwner.Disposed, Is.EqualTo(1), "released once when the connection dropped it");
    }

    private sealed class Owner : IDisposable
    {
        private int _disposed;

        public int Disposed => Volatile.Read(ref _disposed);

        public void Dispose() => Interlocked.Increment(ref _disposed);
    }
}
