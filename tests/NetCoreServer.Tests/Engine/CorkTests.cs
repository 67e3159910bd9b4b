using System;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Engine;

/// <summary>
/// The engine's cork: what a receive hook queues goes out together once the read has been handled, and nothing that
/// waits for the queue (a blocking send, a flush, a disconnect, another thread) is held up by it.
/// </summary>
[TestFixture]
public sealed class CorkTests
{
    internal static byte[] Ascii(string text) => Encoding.ASCII.GetBytes(text);

    internal static string Ascii(byte[] bytes) => Encoding.ASCII.GetString(bytes);

    /// <summary>An engine with one read waiting; <paramref name="onData"/> runs in its receive hook (also SendStageTests').</summary>
    internal static (StreamSessionEngine Engine, InMemoryTransport Transport, RecordingHost Host) Connect(byte[] read, Action<StreamSessionEngine, InMemoryTransport> onData, EngineOptions? options = null)
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        transport.Enqueue(read);
        var host = new RecordingHost();
        var engine = StreamSessionEngineTests.Start(transport, host, options);
        host.OnData = (_, _, _) => onData(engine, transport);
        return (engine, transport, host);
    }

    /// <summary>Starts receiving on the pool, so that a hook that waits on itself fails the test by its deadline instead of hanging it.</summary>
    private static Task Receive(StreamSessionEngine engine) => Task.Run(engine.StartReceiving);

    [Test]
    public async Task AnswersQueuedByTheHooksOfOneReadGoOutInOneTransportSendAfterThem()
    {
        var sentDuringHook = -1;
        var (engine, transport, host) = Connect(Ascii("0123456789"), (e, _) =>
        {
            for (var i = 0; i < 10; i++)
                Assert.That(e.Enqueue(Ascii(i.ToString())), Is.EqualTo(SendStatus.Accepted));
        });
        host.OnData += (_, _, _) => sentDuringHook = transport.Sent().Length;
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () => empty.TrySetResult();

        await Receive(engine);
        await Wait.For(empty.Task, "OnEmpty after the answers went out");

        Assert.That(sentDuringHook, Is.EqualTo(0), "held while the read was handled");
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("0123456789"), "in the order they were queued");
        Assert.That(transport.AsyncSends, Is.EqualTo(1), "ten answers, one send");
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task ABlockingSendInAReceiveHookReturnsAfterWhatTheHookQueuedBeforeIt()
    {
        var sent = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, transport, _) = Connect(Ascii("x"), (e, _) =>
        {
            e.Enqueue(Ascii("queued "));
            sent.TrySetResult(e.SendBlocking(Ascii("blocking")));
        });

        _ = Receive(engine);

        Assert.That(await Wait.For(sent.Task, "the blocking send to return"), Is.EqualTo(8));
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("queued blocking"));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AFlushWaitedForInAReceiveHookCompletes()
    {
        var flushed = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, transport, _) = Connect(Ascii("x"), (e, _) =>
        {
            e.Enqueue(Ascii("answer"));
            flushed.TrySetResult(e.Flush().Wait(Wait.Default) && e.Flush().Result);
        });

        _ = Receive(engine);

        Assert.That(await Wait.For(flushed.Task, "the flush waited for in the hook"), Is.True);
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("answer"));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AnImmediateDisconnectInAReceiveHookStillSendsWhatTheHookQueuedFirst()
    {
        var options = new EngineOptions { DisconnectTimeout = TimeSpan.Zero };
        var (engine, transport, _) = Connect(Ascii("x"), (e, _) =>
        {
            e.Enqueue(Ascii("goodbye"));
            e.Disconnect(DisconnectReason.Local);
        }, options);

        await Receive(engine);
        await Wait.For(engine.Completion, "the connection to end after the hook disconnected it");

        Assert.That(Ascii(transport.Sent()), Is.EqualTo("goodbye"));
        Assert.That(engine.Reason, Is.EqualTo(DisconnectReason.Local));
    }

    [Test]
    public async Task ASendFromAnotherThreadDuringAReceiveHookIsNotHeldAndFollowsWhatTheHookQueued()
    {
        var sentDuringHook = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, _, _) = Connect(Ascii("x"), (e, transport) =>
        {
            e.Enqueue(Ascii("hook "));
            var other = Task.Run(() => e.Enqueue(Ascii("other")));
            if (!other.Wait(Wait.Default))
                throw new TimeoutException("the other thread's send did not return");
            sentDuringHook.TrySetResult(Ascii(transport.Sent()));
        });

        _ = Receive(engine);

        Assert.That(await Wait.For(sentDuringHook.Task, "the hook to see the other thread's send go out"), Is.EqualTo("hook other"));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AHookQueuingMoreThanTheCorkHoldsFindsTheLoopAlreadySending()
    {
        var sentDuringHook = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, _, _) = Connect(Ascii("x"), (e, transport) =>
        {
            e.Enqueue(new byte[SendCork.CorkBytes]);
            sentDuringHook.TrySetResult(transport.Sent().Length);
        });

        _ = Receive(engine);

        Assert.That(await Wait.For(sentDuringHook.Task, "the hook to return"), Is.EqualTo(SendCork.CorkBytes));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task UnderASmallSendLimitAHookThatQueuesTwiceHalfTheLimitIsNotRefused()
    {
        // The peer takes everything at once; without a cork the first answer would be gone before the second is queued.
        var options = new EngineOptions { SendBufferLimit = 1000 };
        var statuses = new TaskCompletionSource<SendStatus[]>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, transport, _) = Connect(Ascii("x"), (e, _) =>
            statuses.TrySetResult(new[] { e.Enqueue(new byte[600]), e.Enqueue(new byte[600]) }), options);

        _ = Receive(engine);

        Assert.That(await Wait.For(statuses.Task, "the hook to return"), Is.EqualTo(new[] { SendStatus.Accepted, SendStatus.Accepted }));
        Assert.That(await engine.Flush(), Is.True);
        Assert.That(transport.Sent().Length, Is.EqualTo(1200));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task EachReadIsUncorkedBeforeTheNextIsHandled()
    {
        var transport = new InMemoryTransport { BlockWhenEmpty = true };
        var host = new RecordingHost();
        var engine = StreamSessionEngineTests.Start(transport, host);
        var seen = new System.Collections.Concurrent.ConcurrentQueue<string>();
        host.OnData = (buffer, offset, size) =>
        {
            // What went out before this read's hooks: every earlier read's answer.
            seen.Enqueue(Ascii(transport.Sent()));
            engine.Enqueue(buffer.AsSpan(offset, size));
        };

        await Receive(engine);
        transport.Enqueue(Ascii("a"));
        await Wait.For(host.Received.Reaches(1), "the first read");
        transport.Enqueue(Ascii("b"));
        await Wait.For(host.Received.Reaches(2), "the second read");

        Assert.That(seen.ToArray(), Is.EqualTo(new[] { "", "a" }));
        Assert.That(await engine.Flush(), Is.True);
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("ab"));
        Assert.That(transport.AsyncSends, Is.EqualTo(2));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AReadDeliveredInsideAnotherConnectionsHookIsUncorkedAtItsEndAndLeavesTheOuterReadCorked()
    {
        var inner = new InMemoryTransport { BlockWhenEmpty = true };
        inner.Enqueue(Ascii("y"));
        var innerHost = new RecordingHost();
        var innerEngine = StreamSessionEngineTests.Start(inner, innerHost);
        innerHost.OnData = (_, _, _) => innerEngine.Enqueue(Ascii("inner"));
        var seen = new TaskCompletionSource<(string Inner, string Outer)>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, transport, host) = Connect(Ascii("x"), (e, t) =>
        {
            e.Enqueue(Ascii("one "));
            // The other connection's read is delivered on this thread, inside this hook: the cork is re-entered.
            innerEngine.StartReceiving();
            e.Enqueue(Ascii("two"));
            seen.TrySetResult((Ascii(inner.Sent()), Ascii(t.Sent())));
        });
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () => empty.TrySetResult();

        _ = Receive(engine);

        var (innerSent, outerSent) = await Wait.For(seen.Task, "the outer hook to return");
        Assert.That(innerSent, Is.EqualTo("inner"), "the inner read's answer left when that read had been handled");
        Assert.That(outerSent, Is.EqualTo(""), "the outer read is still corked after the inner one");
        await Wait.For(empty.Task, "OnEmpty after the outer answers went out");
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("one two"));
        Assert.That(transport.AsyncSends, Is.EqualTo(1), "two answers of one read, one send");
        engine.Abort(DisconnectReason.Local);
        innerEngine.Abort(DisconnectReason.Local);
    }
}
