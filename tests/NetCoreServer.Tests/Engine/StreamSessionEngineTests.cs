using System;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Testing;
using NetCoreServer.Tests.Support;
using NUnit.Framework;
using NetCoreServer.Transports;

namespace NetCoreServer.Tests.Engine;

/// <summary>The shared engine over an in-memory transport whose every operation completes synchronously.</summary>
[TestFixture]
public sealed class StreamSessionEngineTests
{
    /// <summary>An engine past its connect hooks, not receiving yet, with the host's log cleared.</summary>
    internal static StreamSessionEngine Start(IStreamTransport transport, RecordingHost host, EngineOptions? options = null, MulticastLog? log = null)
    {
        if (options != null)
            host.EngineOptions = options;
        var engine = new StreamSessionEngine(transport, host);
        Assert.That(engine.StartConnected(receive: false, log).IsCompletedSuccessfully, Is.True, "a plain transport is ready at once");
        Assert.That(engine.IsConnected, Is.True);
        host.Log.Clear();
        return engine;
    }

    [Test]
    public async Task TwoHundredThousandSynchronousReceivesLoopWithoutGrowingTheStack()
    {
        var transport = new InMemoryTransport();
        for (var i = 0; i < 200_000; i++)
            transport.Enqueue(new byte[] { 1 });
        var host = new RecordingHost();
        var engine = Start(transport, host);

        engine.StartReceiving();
        await Wait.For(engine.Completion, "engine finished after the scripted end of stream");

        Assert.That(host.Received.Value, Is.EqualTo(200_000));
        Assert.That(host.MaxStackDepth, Is.LessThan(200), "stack depth stays flat: completions loop, they do not recurse");
        Assert.That(host.Log.Snapshot(), Is.EqualTo(new[] { "disconnecting", "disconnected" }));
        Assert.That(engine.Reason, Is.EqualTo(DisconnectReason.PeerClosed));
        Assert.That(transport.Disposed, Is.True);
    }

    [Test]
    public async Task AnIdleConnectionWaitsWithAZeroByteReceiveAndHoldsNoBuffer()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        transport.Enqueue(new byte[100]);
        var host = new RecordingHost();
        var engine = Start(transport, host);

        engine.StartReceiving();
        await Wait.For(host.Received.Reaches(100), "first chunk delivered");

        Assert.That(transport.ZeroByteReceives.Count, Is.GreaterThanOrEqualTo(2), "waited for data with a zero-byte receive before renting");
        Assert.That(transport.ReceiveBufferSizes.Last(), Is.EqualTo(0), "idle after a short read: the buffer went back to the pool and the engine waits with a zero-byte receive");
        engine.Abort(DisconnectReason.Local);
        await Wait.For(engine.Completion, "engine finished after Abort");
    }

    [Test]
    public async Task TheReceiveBufferGrowsDuringABurstStaysUnderItsLimitAndShrinksAfterwards()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var options = new EngineOptions { ReceiveBufferSize = 1024, ReceiveBufferLimit = 16 * 1024 };
        var largest = 0;
        var host = new RecordingHost { OnData = (_, _, size) => largest = Math.Max(largest, size) };
        var engine = Start(transport, host, options);
        for (var i = 0; i < 20; i++)
            transport.Enqueue(new byte[64 * 1024]);

        engine.StartReceiving();
        await Wait.For(host.Received.Reaches(20 * 64 * 1024), "the whole burst delivered");
        Assert.That(transport.ReceiveBufferSizes.Max(), Is.EqualTo(16 * 1024), "grew to the limit while reads filled the buffer");
        Assert.That(largest, Is.EqualTo(16 * 1024), "no chunk larger than the limit");

        var delivered = host.Received.Value;
        for (var i = 0; i < 10; i++)
            transport.Enqueue(new byte[10]);
        await Wait.For(host.Received.Reaches(delivered + 100), "small reads delivered");
        Assert.That(transport.ReceiveBufferSizes.Last(size => size > 0), Is.EqualTo(1024), "shrank back to the initial size after the burst");
        engine.Abort(DisconnectReason.Local);
    }

    /// <summary>What a server's Multicast does for one session: write, offer, publish, wake.</summary>
    private static SendStatus Multicast(MulticastLog log, StreamSessionEngine engine, byte[] message)
    {
        lock (log.Lock)
        {
            var start = log.Written;
            log.Write(message);
            var status = engine.OfferLogged(start, log.Written, out _);
            log.Publish();
            System.Threading.Interlocked.MemoryBarrier();
            engine.WakeForLog();
            return status;
        }
    }

    [Test]
    public async Task OwnSendsAndMulticastBytesGoOutInTheOrderTheyWereMade()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var log = new MulticastLog();
        var engine = Start(transport, new RecordingHost(), log: log);

        for (var i = 0; i < 100; i++)
            Assert.That(engine.Enqueue(new[] { (byte)i }), Is.EqualTo(SendStatus.Accepted));
        // Larger than a log block, so it spans two of them.
        var multicast = Enumerable.Range(0, LogChunk.Size + 2048).Select(i => (byte)(i % 251)).ToArray();
        Assert.That(Multicast(log, engine, multicast), Is.EqualTo(SendStatus.Accepted));
        Assert.That(engine.Enqueue(new byte[] { 200 }), Is.EqualTo(SendStatus.Accepted));
        Assert.That(await engine.Flush(), Is.True);

        var sent = transport.Sent();
        Assert.That(sent.Take(100), Is.EqualTo(Enumerable.Range(0, 100).Select(i => (byte)i)));
        Assert.That(sent.Skip(100).Take(multicast.Length), Is.EqualTo(multicast), "the multicast whole, across the block boundary");
        Assert.That(sent.Last(), Is.EqualTo(200), "the send made after the multicast comes after it");
        Assert.That(engine.BytesSent, Is.EqualTo(100 + multicast.Length + 1));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AMulticastPastTheSendLimitIsSkippedWholeAndLaterOnesStillArrive()
    {
        // Sends wait until the test lets them go, so queued bytes stay queued.
        var transport = new InMemoryTransport { BlockWhenEmpty = true, HoldSends = true };
        var log = new MulticastLog();
        var engine = Start(transport, new RecordingHost(), new EngineOptions { SendBufferLimit = 1000 }, log);

        Assert.That(Multicast(log, engine, Enumerable.Repeat((byte)1, 600).ToArray()), Is.EqualTo(SendStatus.Accepted));
        Assert.That(Multicast(log, engine, Enumerable.Repeat((byte)2, 600).ToArray()), Is.EqualTo(SendStatus.LimitReached));
        // Read once the send loop (started on the pool) holds the first message: the two counters are read one after
        // the other, and a loop taking the batch between the reads would count it in both.
        await Wait.Until(() => engine.BytesSending == 600, "the send loop holding the first message");
        Assert.That(engine.BytesPending + engine.BytesSending, Is.EqualTo(600), "the skipped message takes no room");
        transport.ReleaseSends();
        Assert.That(await engine.Flush(), Is.True);
        Assert.That(Multicast(log, engine, Enumerable.Repeat((byte)3, 600).ToArray()), Is.EqualTo(SendStatus.Accepted));
        Assert.That(await engine.Flush(), Is.True);

        var sent = transport.Sent();
        Assert.That(sent, Has.Length.EqualTo(1200));
        Assert.That(sent.Take(600), Is.All.EqualTo(1));
        Assert.That(sent.Skip(600), Is.All.EqualTo(3), "no byte of the skipped message");
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AStuckSessionHoldsTheLogBlocksOfItsQueueAndNoLaterOnes()
    {
        // A session whose sends never complete, beside one that reads at once: the stuck one may hold its send
        // limit's worth of the log, and the blocks after its queue must go back as the reader passes them.
        const int limit = 256 * 1024;
        var log = new MulticastLog();
        var stuckTransport = new InMemoryTransport { BlockWhenEmpty = true, HoldSends = true };
        var stuck = Start(stuckTransport, new RecordingHost(), new EngineOptions { SendBufferLimit = limit }, log);
        var readerTransport = new InMemoryTransport { BlockWhenEmpty = true };
        var reader = Start(readerTransport, new RecordingHost(), log: log);

        var message = new byte[32 * 1024];
        var mostLive = 0L;
        for (var i = 0; i < 300; i++)
        {
            lock (log.Lock)
            {
                var start = log.Written;
                log.Write(message);
                stuck.OfferLogged(start, log.Written, out _);
                reader.OfferLogged(start, log.Written, out _);
                log.Publish();
                System.Threading.Interlocked.MemoryBarrier();
                stuck.WakeForLog();
                reader.WakeForLog();
            }
            if (i % 10 == 9)
            {
                Assert.That(await reader.Flush(), Is.True);
                mostLive = Math.Max(mostLive, log.LiveBlocks);
            }
        }

        Assert.That(readerTransport.Sent(), Has.Length.EqualTo(300 * message.Length), "the reader got every message");
        Assert.That(stuck.BytesPending + stuck.BytesSending, Is.LessThanOrEqualTo(limit), "the stuck session holds at most its limit");
        // Its limit in blocks, one it straddles at each end, and the block being written.
        Assert.That(mostLive, Is.LessThanOrEqualTo(limit / LogChunk.Size + 3), "blocks alive while 9.4 MiB went through the log");
        stuck.Abort(DisconnectReason.Local);
        reader.Abort(DisconnectReason.Local);
        stuckTransport.ReleaseSends();
        await Wait.For(stuck.Completion, "stuck engine finished");
        await Wait.For(reader.Completion, "reader engine finished");
        // The held batch is let go when its send completes, which may come after the engine finished.
        await Wait.Until(() => log.LiveBlocks <= 1, "only the block being written alive once both left");
    }

    [Test]
    public async Task AfterTheDisconnectBeginsMulticastsNoLongerReachTheSession()
    {
        var transport = new InMemoryTransport();
        var log = new MulticastLog();
        var engine = Start(transport, new RecordingHost(), log: log);

        Assert.That(Multicast(log, engine, new byte[] { 1, 2, 3 }), Is.EqualTo(SendStatus.Accepted));
        engine.Disconnect(DisconnectReason.Local);
        Assert.That(Multicast(log, engine, new byte[] { 4 }), Is.EqualTo(SendStatus.NotConnected));
        await Wait.For(engine.Completion, "engine finished");

        Assert.That(transport.Sent(), Is.EqualTo(new byte[] { 1, 2, 3 }), "what was published before the disconnect, and nothing after");
    }

    [Test]
    public void EnqueueIsRefusedPastTheSendLimitAndAfterDisconnect()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var options = new EngineOptions { SendBufferLimit = 1000 };
        var engine = Start(transport, new RecordingHost(), options);

        Assert.That(engine.Enqueue(new byte[1001]), Is.EqualTo(SendStatus.LimitReached));
        Assert.That(engine.Enqueue(new byte[1000]), Is.EqualTo(SendStatus.Accepted));
        Assert.That(engine.Disconnect(DisconnectReason.Local), Is.True);
        Assert.That(engine.Disconnect(DisconnectReason.Error), Is.False, "first reason wins");
        Assert.That(engine.Enqueue(new byte[1]), Is.EqualTo(SendStatus.NotConnected));
        Assert.That(engine.Reason, Is.EqualTo(DisconnectReason.Local));
    }

    [Test]
    public async Task GracefulDisconnectSendsQueuedDataThenShutsDownBeforeClosing()
    {
        var transport = new InMemoryTransport();
        var host = new RecordingHost();
        var engine = Start(transport, host);
        engine.Enqueue(new byte[] { 1, 2, 3 });

        engine.Disconnect(DisconnectReason.Local);
        await Wait.For(engine.Completion, "engine finished");

        Assert.That(transport.Sent(), Is.EqualTo(new byte[] { 1, 2, 3 }));
        Assert.That(transport.ShutdownSent, Is.True, "end of stream sent after the data");
        Assert.That(transport.Closed, Is.True);
        Assert.That(host.Log.Snapshot().Where(e => e is "disconnecting" or "disconnected"), Is.EqualTo(new[] { "disconnecting", "disconnected" }));
    }

    [Test]
    public async Task AThrowingReceiveHandlerIsReportedAndClosesTheConnection()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        transport.Enqueue(new byte[] { 1 });
        var host = new RecordingHost { OnData = (_, _, _) => throw new InvalidOperationException("bug") };
        var engine = Start(transport, host);

        engine.StartReceiving();
        await Wait.For(engine.Completion, "engine finished after the handler threw");

        Assert.That(host.Log.Snapshot(), Is.EqualTo(new[] { "exception bug", "disconnecting", "disconnected" }));
        Assert.That(engine.Reason, Is.EqualTo(DisconnectReason.HandlerException));
    }

    [Test]
    public async Task WaitersFailWhenTheConnectionIsAborted()
    {
        var transport = new BlockingSendTransport();
        var engine = Start(transport, new RecordingHost());
        var wait = engine.EnqueueAndWait(new byte[10], out var status);
        Assert.That(status, Is.EqualTo(SendStatus.Accepted));

        engine.Abort(DisconnectReason.Local);

        Assert.That(await Wait.For(wait, "waiter completed"), Is.False, "data never reached the transport");
    }
}
