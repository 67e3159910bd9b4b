using System;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Testing;
using NUnit.Framework;
using static NetCoreServer.Tests.Engine.CorkTests;

namespace NetCoreServer.Tests.Engine;

/// <summary>
/// The cork's stage: messages a receive hook writes itself (framed messages) are written without the
/// session lock and join the queue when the read has been handled, in order with everything else that hook sends.
/// </summary>
[TestFixture]
public sealed class SendStageTests
{
    /// <summary>A message that writes itself, like a framed message.</summary>
    private readonly struct Written : IMessageWriter
    {
        private readonly byte[] _data;

        public Written(string text) => _data = Ascii(text);

        public int Length => _data.Length;

        public bool Commit() => true;

        public bool MayBeRefused => false;

        public void WriteTo(ref QueueWriter queue) => queue.Write(_data);
    }

    /// <summary>A message another thread could refuse (like a WebSocket data frame), whose check waits until released.</summary>
    private readonly struct Refusable(string text, ManualResetEventSlim checking, ManualResetEventSlim release) : IMessageWriter
    {
        private readonly byte[] _data = Ascii(text);

        public int Length => _data.Length;

        public bool Commit()
        {
            checking.Set();
            return release.Wait(Wait.Default);
        }

        public bool MayBeRefused => true;

        public void WriteTo(ref QueueWriter queue) => queue.Write(_data);
    }

    private static SendStatus Write(StreamSessionEngine engine, string text)
    {
        var message = new Written(text);
        return engine.EnqueueWritten(ref message);
    }

    private static (StreamSessionEngine Engine, InMemoryTransport Transport, RecordingHost Host) Connect(string read, Action<StreamSessionEngine> onData, EngineOptions? options = null)
        => CorkTests.Connect(Ascii(read), (e, _) => onData(e), options);

    [Test]
    public async Task WrittenMessagesOfAHookTakeNoSessionLockAfterTheFirst()
    {
        // Another thread holds the session lock while the hook writes: only the stage lets the hook go on.
        using var locked = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var written = new TaskCompletionSource<SendStatus[]>(TaskCreationOptions.RunContinuationsAsynchronously);
        StreamSessionEngine? target = null;
        var holder = new Thread(() =>
        {
            using (target!.Enter())
            {
                locked.Set();
                release.Wait(Wait.Default);
            }
        }) { IsBackground = true };
        var (engine, transport, host) = Connect("x", e =>
        {
            var first = Write(e, "one ");
            holder.Start();
            locked.Wait(Wait.Default);
            var rest = new[] { Write(e, "two "), Write(e, "three") };
            written.TrySetResult([first, .. rest]);
        });
        target = engine;
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () => empty.TrySetResult();

        _ = Task.Run(engine.StartReceiving);

        try
        {
            Assert.That(await Wait.For(written.Task, "the hook's writes while another thread holds the session lock"), Is.All.EqualTo(SendStatus.Accepted));
        }
        finally
        {
            release.Set();
        }
        await Wait.For(empty.Task, "OnEmpty after the staged messages went out");
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("one two three"));
        Assert.That(transport.AsyncSends, Is.EqualTo(1), "one read's messages, one send");
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task StagedAndCopiedSendsOfAHookLeaveInTheOrderTheHookMadeThem()
    {
        var (engine, transport, host) = Connect("x", e =>
        {
            Write(e, "a");
            e.Enqueue(Ascii("b"));
            Write(e, "c");
            Write(e, "d");
            Assert.That(e.BytesPending, Is.EqualTo(4), "staged bytes count as pending for the hook that wrote them");
            e.Enqueue(Ascii("e"));
        });
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () => empty.TrySetResult();

        await Task.Run(engine.StartReceiving);
        await Wait.For(empty.Task, "OnEmpty");

        Assert.That(Ascii(transport.Sent()), Is.EqualTo("abcde"));
        Assert.That(transport.AsyncSends, Is.EqualTo(1));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AMessageTheThreadWritesAfterItsReadWasHandledIsSentNotStaged()
    {
        // The stage of a read closes when the read has been handled: the same thread's next message leaves at once,
        // without waiting for another read.
        var (engine, transport, host) = Connect("x", e => Write(e, "one "));
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () =>
        {
            if (Ascii(transport.Sent()) == "one two")
                empty.TrySetResult();
        };

        var status = await Task.Run(() =>
        {
            engine.StartReceiving();
            return Write(engine, "two");
        });

        Assert.That(status, Is.EqualTo(SendStatus.Accepted));
        await Wait.For(empty.Task, "the message written after the read went out");
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("one two"));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task ABlockingSendAfterStagedMessagesReturnsOnceTheyAndItAreSent()
    {
        var sent = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, transport, _) = Connect("x", e =>
        {
            Write(e, "staged ");
            sent.TrySetResult(e.SendBlocking(Ascii("blocking")));
        });

        _ = Task.Run(engine.StartReceiving);

        Assert.That(await Wait.For(sent.Task, "the blocking send"), Is.EqualTo(8));
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("staged blocking"));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AReadDeliveredInsideAHookMovesTheOuterStageIntoItsQueueAndBothKeepTheirOrder()
    {
        var inner = new InMemoryTransport { BlockWhenEmpty = true };
        inner.Enqueue(Ascii("y"));
        var innerHost = new RecordingHost();
        var innerEngine = StreamSessionEngineTests.Start(inner, innerHost);
        innerHost.OnData = (_, _, _) =>
        {
            Write(innerEngine, "inner ");
            Write(innerEngine, "answer");
        };
        var seen = new TaskCompletionSource<(string Inner, string Outer)>(TaskCreationOptions.RunContinuationsAsynchronously);
        InMemoryTransport? outer = null;
        var (engine, transport, host) = Connect("x", e =>
        {
            Write(e, "one ");
            innerEngine.StartReceiving();
            Write(e, "two");
            seen.TrySetResult((Ascii(inner.Sent()), Ascii(outer!.Sent())));
        });
        outer = transport;
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () => empty.TrySetResult();

        _ = Task.Run(engine.StartReceiving);

        var (innerSent, outerSent) = await Wait.For(seen.Task, "the outer hook to return");
        Assert.That(innerSent, Is.EqualTo("inner answer"), "the inner read's messages left when it had been handled");
        Assert.That(outerSent, Is.EqualTo(""), "the outer read is still corked");
        await Wait.For(empty.Task, "OnEmpty after the outer messages");
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("one two"));
        Assert.That(transport.AsyncSends, Is.EqualTo(1));
        engine.Abort(DisconnectReason.Local);
        innerEngine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task StagedMessagesCountAgainstTheSendLimitOfOtherThreads()
    {
        var options = new EngineOptions { SendBufferLimit = 1000 };
        var statuses = new TaskCompletionSource<(SendStatus Staged, SendStatus Other)>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, transport, _) = Connect("x", e =>
        {
            var staged = Write(e, new string('s', 400));
            var other = Task.Run(() => e.Enqueue(new byte[700]));
            statuses.TrySetResult((staged, other.Wait(Wait.Default) ? other.Result : SendStatus.NotConnected));
        }, options);

        _ = Task.Run(engine.StartReceiving);

        var (stagedStatus, otherStatus) = await Wait.For(statuses.Task, "the hook to return");
        Assert.That(stagedStatus, Is.EqualTo(SendStatus.Accepted));
        Assert.That(otherStatus, Is.EqualTo(SendStatus.LimitReached), "400 staged and 700 more pass the limit of 1000");
        Assert.That(await engine.Flush(), Is.True);
        Assert.That(transport.Sent().Length, Is.EqualTo(400));
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task ADisconnectFromAnotherThreadWhileAHookStagesStillSendsWhatWasStaged()
    {
        var (engine, transport, _) = Connect("x", e =>
        {
            Assert.That(Write(e, "staged"), Is.EqualTo(SendStatus.Accepted));
            var other = Task.Run(() => e.Disconnect(DisconnectReason.Local, linger: false));
            if (!other.Wait(Wait.Default))
                throw new TimeoutException("the other thread's disconnect did not return");
        });

        _ = Task.Run(engine.StartReceiving);
        await Wait.For(engine.Completion, "the connection to end after the disconnect");

        Assert.That(Ascii(transport.Sent()), Is.EqualTo("staged"));
        Assert.That(transport.ShutdownSent, Is.True, "a graceful close, after the staged bytes");
    }

    [Test]
    public async Task AMessageFromAnotherThreadWhileAHookStagesGoesAfterWhatTheHookStagedBeforeIt()
    {
        var other = new TaskCompletionSource<SendStatus>(TaskCreationOptions.RunContinuationsAsynchronously);
        var (engine, transport, host) = Connect("x", e =>
        {
            Write(e, "one ");
            // The other thread does not wait for the hook: it seals the stage, and both go now, in the order made.
            var two = Task.Run(() => Write(e, "two "));
            other.TrySetResult(two.Wait(Wait.Default) ? two.Result : SendStatus.NotConnected);
            Write(e, "three");
        });
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () => empty.TrySetResult();

        _ = Task.Run(engine.StartReceiving);

        Assert.That(await Wait.For(other.Task, "the other thread's message"), Is.EqualTo(SendStatus.Accepted));
        await Wait.For(empty.Task, "OnEmpty after every message");
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("one two three"), "the staged message, the other thread's, the hook's next");
        engine.Abort(DisconnectReason.Local);
    }

    [Test]
    public async Task AThreadThatQueuesWhileARefusableMessageIsStagedGoesAfterIt()
    {
        // A seal waits in the stage's gate while a message that could be refused is checked and written, so that
        // message is either before the other thread's (here) or refused (a close): never after it.
        using var checking = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();
        var (engine, transport, host) = Connect("x", e =>
        {
            Write(e, "one ");
            var refusable = new Refusable("two ", checking, release);
            e.EnqueueWritten(ref refusable);
        });
        var empty = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        host.OnEmpty = () => empty.TrySetResult();

        _ = Task.Run(engine.StartReceiving);
        Assert.That(checking.Wait(Wait.Default), Is.True, "the hook checks its second message");
        var other = Task.Run(() => Write(engine, "three"));
        // Bounded: with the gate the other thread waits for the release; without it, it would be queued by now.
        other.Wait(TimeSpan.FromMilliseconds(300));
        release.Set();

        Assert.That(await Wait.For(other, "the other thread's message"), Is.EqualTo(SendStatus.Accepted));
        await Wait.For(empty.Task, "OnEmpty after every message");
        Assert.That(Ascii(transport.Sent()), Is.EqualTo("one two three"));
        engine.Abort(DisconnectReason.Local);
    }
}
