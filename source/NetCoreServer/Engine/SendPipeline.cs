using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Buffers;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

/// <summary>
/// The sending side of a session: the bounded <see cref="SendQueue"/> and its accounting, the multicast messages its
/// cursor takes from the log, the <see cref="Backpressure"/>, the <see cref="SendWaiters"/> and the
/// <see cref="SendLoop"/> that holds the sender role. Nothing is sent before the transport is ready (after the TLS handshake).
/// </summary>
/// <remarks>
/// Made by the engine on the first send or multicast: an idle connection has none. Its state is guarded by the
/// <see cref="SessionLock"/> (the methods that need it take its proof); the counters marked so are read without it.
/// Published multicast messages are moved into the queue (<see cref="Materialize"/>) before anything is taken from or
/// added to it, which keeps multicast and the session's own sends in the order they were made. What a receive hook
/// sends waits here, in the queue or the <see cref="SendStage"/>, until its read has been handled (the <see cref="SendCork"/>).
/// </remarks>
internal sealed class SendPipeline
{
    private readonly StreamSessionEngine _engine;
    private readonly SendQueue _queue = new();
    private readonly SendLoop _loop;
    // A mutable struct: never copied, always used in place.
    private Backpressure _backpressure;
    private SendWaiters? _waiters;
    // Made by the first message a receive hook writes itself; under the lock, except for its own thread's writes.
    private SendStage? _stage;

    public SendPipeline(StreamSessionEngine engine)
    {
        _engine = engine;
        _loop = new SendLoop(this, engine);
        _backpressure = new Backpressure(engine);
    }

    public bool Unwritable => _backpressure.Unwritable;

    public bool IsWritable => !Unwritable;

    /// <summary>Bytes accepted and not yet handed to the transport.</summary>
    public long BytesPending
    {
        get
        {
            using var held = _engine.Enter();
            Materialize(held, adding: false);
            return _queue.Bytes;
        }
    }

    /// <summary>Counts <paramref name="bytes"/> just moved into the queue as accepted (multicast messages), against the watermarks.</summary>
    internal void CountMoved(long bytes, SessionLock.Held held)
    {
        _queue.AcceptedTotal += bytes;
        _backpressure.Raise(_queue.Bytes + _queue.Sending, held);
    }

    /// <summary>Bytes handed to the transport in the send under way, and over the connection's life.</summary>
    public long BytesSending => _queue.ReadSending();

    public long BytesSent => _queue.ReadSent();

    /// <summary>The sender role is taken (the loop runs, or a blocking send writes); read without the lock.</summary>
    public bool IsRunning => _loop.IsRunning;

    /// <summary>Nothing accepted waits and no sender runs.</summary>
    public bool IsDrained(SessionLock.Held held) => !_loop.IsRunning && _queue.IsEmpty && (_stage?.Reserved ?? 0) == 0;

    /// <summary>Nothing here holds a finish back: no sender, or it waits in a transport call, and no OnEmpty runs.</summary>
    public bool IsQuiescent(SessionLock.Held held) => _loop.IsQuiescent(held);

    /// <summary>The connection whose sends these are.</summary>
    internal StreamSessionEngine Engine => _engine;

    /// <summary>The queue, for the pipeline's components (the loop takes its batches, the stage joins it), under the lock.</summary>
    internal SendQueue Queue => _queue;

    private EngineOptions Options => _engine.Options;

    public bool TakeRefusalReport() => _backpressure.TakeRefusalReport();

    public bool TakeSlowConsumerReport() => _backpressure.TakeSlowConsumerReport();

    /// <summary>Queues <paramref name="head"/> and <paramref name="body"/> (copied) as one unit: no other send comes between them.</summary>
    public SendStatus Enqueue(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        var options = Options;
        bool start;
        using (var held = _engine.Enter())
        {
            Materialize(held);
            var status = CheckAccept(head.Length + body.Length, options, held);
            if (status != SendStatus.Accepted)
                return status;
            Append(head, body, options, held);
            start = Accepted(head.Length + body.Length, mayHold: true, options, held);
        }
        _backpressure.Notify();
        if (start)
            _loop.Run();
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Queues <paramref name="message"/> as one unit, written by itself under the lock after its
    /// <see cref="IMessageWriter.Commit"/>; refused as <see cref="Enqueue"/> is, or NotConnected when it does not commit.
    /// The options are read once: this is the path of every WebSocket frame.
    /// </summary>
    public SendStatus EnqueueWritten<T>(scoped ref T message)
        where T : IMessageWriter, allows ref struct
    {
        var length = message.Length;
        var options = Options;
        if (SendCork.Holds(_engine) && TryStage(ref message, length, options, out var staged))
            return staged;
        bool start;
        using (var held = _engine.Enter())
        {
            Materialize(held);
            var status = CheckAccept(length, options, held);
            if (status != SendStatus.Accepted)
                return status;
            if (!message.Commit())
                return SendStatus.NotConnected;
            var writer = new QueueWriter(_queue, options.SendBufferSize);
            message.WriteTo(ref writer);
            Debug.Assert(writer.Written == length, "a message writes exactly its length");
            start = Accepted(length, mayHold: true, options, held);
        }
        _backpressure.Notify();
        if (start)
            _loop.Run();
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Like <see cref="Enqueue"/>, but the body is queued by reference: its bytes must stay unchanged until sent. Once
    /// accepted, <paramref name="bodyOwner"/> is disposed when the body has been sent or dropped; when refused, the caller keeps it.
    /// </summary>
    public SendStatus EnqueueBorrowed(ReadOnlySpan<byte> head, ArraySegment<byte> body, IDisposable? bodyOwner)
    {
        var options = Options;
        bool start;
        using (var held = _engine.Enter())
        {
            Materialize(held);
            var status = CheckAccept(head.Length + body.Count, options, held);
            if (status != SendStatus.Accepted)
                return status;
            Append(head, default, options, held);
            if (body.Count > 0)
                _queue.AppendBorrowed(body, bodyOwner);
            start = Accepted(head.Length + body.Count, mayHold: true, options, held);
        }
        if (body.Count == 0)
            bodyOwner?.Dispose();
        _backpressure.Notify();
        if (start)
            _loop.Run();
        return SendStatus.Accepted;
    }

    /// <summary>Queues <paramref name="data"/> and completes with true once it has been handed to the transport, false if the connection ends first.</summary>
    public Task<bool> EnqueueAndWait(ReadOnlySpan<byte> data, out SendStatus status)
    {
        var options = Options;
        Task<bool> task;
        bool start;
        using (var held = _engine.Enter())
        {
            Materialize(held);
            status = CheckAccept(data.Length, options, held);
            if (status != SendStatus.Accepted)
                return Task.FromResult(false);
            Append(data, default, options, held);
            start = Accepted(data.Length, mayHold: false, options, held);
            task = AddWaiter(held);
        }
        _backpressure.Notify();
        if (start)
            _loop.Run();
        return task;
    }

    /// <summary>Completes once everything accepted so far has been handed to the transport.</summary>
    public Task<bool> Flush()
    {
        Task<bool> task;
        bool start;
        using (var held = _engine.Enter())
        {
            Materialize(held);
            if (!_loop.IsRunning && _queue.IsEmpty)
                return Task.FromResult(_engine.State is SessionState.Connected or SessionState.Disconnecting);
            if (_engine.Closed)
                return Task.FromResult(false);
            task = AddWaiter(held);
            // Called from a receive hook, the cork may hold the bytes this waits for.
            start = StartHeld(held);
        }
        if (start)
            _loop.Run();
        return task;
    }

    /// <summary>
    /// NetCoreServer's blocking send of a message in one or two pieces, as one unit: blocks until the bytes are handed to
    /// the transport, in order with queued sends. It writes directly when nothing else is sending (not on a loop's
    /// thread); otherwise it queues and waits (a loop's thread hands its loop off first), except inside OnSent/OnEmpty or
    /// a hook before the TLS handshake, where waiting would wait on itself: there it queues and returns.
    /// </summary>
    public long SendBlocking(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        var length = head.Length + body.Length;
        if (length == 0)
            return 0;
        var options = Options;
        Task<bool>? wait = null;
        bool direct;
        var start = false;
        using (var held = _engine.Enter())
        {
            if (!_engine.AcceptsSends)
                return 0;
            Materialize(held);
            var onLoop = ThreadRole.IsLoop;
            direct = !onLoop && _queue.IsEmpty && _loop.TryTake(held);
            if (direct)
            {
                _queue.Sending = length;
                _queue.AcceptedTotal += length;
            }
            else
            {
                Append(head, body, options, held);
                start = Accepted(length, mayHold: false, options, held);
                if (!Hooks.Inside(_engine, HookKind.Sending) && (_engine.Ready || !Hooks.Inside(_engine)))
                    wait = AddWaiter(held);
            }
        }

        if (!direct)
        {
            _backpressure.Notify();
            if (start)
                _loop.Run();
            if (wait is { IsCompleted: false })
                ThreadRole.HandOffLoop();
            return wait == null || wait.GetAwaiter().GetResult() ? length : 0;
        }
        // The sender role is held: nothing can come between the two pieces.
        var transport = _engine.Transport;
        var result = transport.Send(head);
        if (result.Succeeded && !body.IsEmpty)
        {
            var rest = transport.Send(body);
            result = new IoResult(result.Bytes + rest.Bytes, rest.Error);
        }
        if (CompleteSend(result, direct: true))
            _loop.Run();
        return result.Bytes;
    }

    /// <summary>The transport became ready (TLS: handshaked): sends what waited, or raises OnEmpty when nothing did.</summary>
    public void StartWaiting(bool raiseEmpty)
    {
        bool start, empty;
        using (var held = _engine.Enter())
        {
            Materialize(held);
            empty = !_loop.IsRunning && _queue.IsEmpty;
            start = !_queue.IsEmpty && _loop.TryTake(held);
        }
        if (start)
            _loop.Run();
        else if (empty && raiseEmpty && _engine.State == SessionState.Connected)
            _engine.RunHook(HookKind.Sending, 0, static (e, _) => e.Host.EngineEmpty());
    }

    /// <summary>Starts sending what the cork holds now (the read has been handled, or the connection is about to close).</summary>
    public void SendHeld()
    {
        bool start, settled;
        using (var held = _engine.Enter())
        {
            settled = _stage is { IsOpenHere: true };
            Materialize(held);
            start = StartHeld(held);
        }
        if (start)
            _loop.Run();
        else if (settled && _engine.State >= SessionState.Disconnecting)
            _engine.BeginShutdownIfDrained(); // a disconnect waited for a stage that held nothing
    }

    /// <summary>Moves what this thread staged into the queue, without sending it yet (before a multicast or another delivery of this thread).</summary>
    public void SettleStage()
    {
        if (_stage is not { IsOpenHere: true })
            return;
        using var held = _engine.Enter();
        Materialize(held);
    }

    // The cork's fast path (see SendStage): true when the message was staged, or refused by its Commit, without the lock.
    private bool TryStage<T>(scoped ref T message, int length, EngineOptions options, out SendStatus status)
        where T : IMessageWriter, allows ref struct
    {
        status = SendStatus.Accepted;
        var stage = _stage;
        if (stage is not { IsOpenHere: true } && (stage = OpenStage(length, options)) == null)
            return false;
        if (!_engine.AcceptsSends || !stage.TryWrite(ref message, length, out var committed))
            return false;
        if (!committed)
            status = SendStatus.NotConnected;
        return true;
    }

    private SendStage? OpenStage(int length, EngineOptions options)
    {
        using var held = _engine.Enter();
        if (!_engine.AcceptsSends || _stage is { IsOpen: true })
            return null;
        Materialize(held);
        var stage = _stage ??= new SendStage();
        return stage.TryOpen(length, _queue.Bytes, _queue.Sending, options, held) ? stage : null;
    }

    // Under the lock, by the stage's thread: closes it; its messages join the queue as accepted sends.
    private void MoveStageIn(SessionLock.Held held)
    {
        var moved = _stage!.Take(_queue, Options.SendBufferSize, drop: _engine.Closed, held);
        if (moved > 0)
            CountMoved(moved, held);
    }

    /// <summary>Fails what waits to be sent (the socket closed): the queue is dropped and waiting callers get false.</summary>
    public void FailQueued()
    {
        TaskCompletionSource<bool>[]? failed;
        using (var held = _engine.Enter())
        {
            _queue.Clear();
            failed = _waiters?.TakeAll(held);
        }
        SendWaiters.Complete(failed, delivered: false);
    }

    /// <summary>Books a finished transport send of either sender: counters, waiters, OnSent. False when it failed (the sender role is given up).</summary>
    public bool CompleteSend(IoResult result, bool direct)
    {
        long pending = 0;
        TaskCompletionSource<bool>[]? done = null;
        TaskCompletionSource? writable = null;
        using (var held = _engine.Enter())
        {
            if (direct)
                _queue.Sending = 0;
            else if (result.Succeeded)
                _queue.Batch!.Consume(result.Bytes);
            _queue.AddSent(result.Bytes);
            if (result.Succeeded)
            {
                // Published multicast bytes count as pending (for OnSent and the watermarks) like queued ones.
                Materialize(held, adding: false);
                var inFlight = _queue.Batch?.Bytes ?? 0;
                _queue.Sending = inFlight;
                pending = _queue.Bytes + inFlight;
                done = _waiters?.TakeCompleted(_queue.Sent, held);
                writable = _backpressure.Lower(pending, held);
            }
            else
            {
                _loop.EndBatch(held);
                _loop.Release(held);
            }
        }
        _engine.Host.EngineCounted(0, result.Bytes);
        if (!result.Succeeded)
        {
            _engine.OnTransportError(result.Error);
            FailQueued();
            _engine.TryFinish();
            return false;
        }
        SendWaiters.Complete(done, delivered: true);
        writable?.TrySetResult();
        _backpressure.Notify();
        if (_engine.State == SessionState.Connected)
            _engine.RunHook(HookKind.Sending, (result.Bytes, pending), static (e, a) => e.Host.EngineSent(a.Bytes, a.pending));
        return true;
    }

    private void Append(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, EngineOptions options, SessionLock.Held held)
    {
        var chunk = options.SendBufferSize;
        _queue.Append(head, chunk);
        if (!body.IsEmpty)
            _queue.Append(body, chunk);
    }

    private SendStatus CheckAccept(int length, EngineOptions options, SessionLock.Held held)
    {
        if (!_engine.AcceptsSends)
            return SendStatus.NotConnected;
        var limit = options.SendBufferLimit;
        if (limit > 0 && _queue.Bytes + _queue.Sending + (_stage?.Reserved ?? 0) + length > limit)
            return SendStatus.LimitReached;
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Counts accepted bytes; true when the caller must start the send loop. A send that is waited for never stays
    /// behind the cork (<paramref name="mayHold"/> false): it starts the loop, taking what the cork held with it.
    /// </summary>
    private bool Accepted(int length, bool mayHold, EngineOptions options, SessionLock.Held held)
    {
        _queue.AcceptedTotal += length;
        _backpressure.Raise(_queue.Bytes + _queue.Sending, held);
        if (mayHold && SendCork.Holds(_engine) && _queue.Bytes < SendCork.LimitFor(options))
            return false;
        return _loop.TryTake(held);
    }

    private Task<bool> AddWaiter(SessionLock.Held held) => (_waiters ??= new SendWaiters()).Add(_queue.AcceptedTotal, held);

    /// <summary>True when the caller must run the send loop for what waits in the queue.</summary>
    private bool StartHeld(SessionLock.Held held) => !_queue.IsEmpty && _loop.TryTake(held);

    /// <summary>Queues every published multicast message this session has not taken yet (the engine, before it leaves the log).</summary>
    public void TakeLogged(SessionLock.Held held) => Materialize(held);

    /// <summary>After a publication (and a full fence): starts an idle send loop on the pool (a running loop takes the message itself).</summary>
    public void WakeForLog()
    {
        if (_loop.IsRunning)
            return;
        using (var held = _engine.Enter())
        {
            // A session joins the log before OnConnected: what it is sent waits until then (MarkReady takes it).
            if (!_engine.Cursor.IsAttached || _loop.IsRunning || !_engine.Ready || _engine.Closed || _engine.State == SessionState.Connecting)
                return;
            Materialize(held);
            if (_queue.IsEmpty)
                return;
            _loop.TakeForPool(held);
        }
        _backpressure.Notify();
        _loop.RunOnPool();
    }

    /// <summary>
    /// Moves the staged and the published multicast messages into the queue: what a hook staged came before anything
    /// queued now, by its thread or by another (which seals the stage). A call that adds nothing itself
    /// (<paramref name="adding"/> false: the send loop's, a count) leaves another thread's stage open unless multicast
    /// messages go in behind it.
    /// </summary>
    internal void Materialize(SessionLock.Held held, bool adding = true)
    {
        ref var cursor = ref _engine.Cursor;
        var logged = cursor.IsAttached && cursor.Position < cursor.LogEnd;
        if (_stage is { IsOpen: true } stage)
        {
            if (stage.IsOpenHere)
                MoveStageIn(held);
            else if ((adding || logged) && !_engine.Closed)
            {
                var moved = stage.Seal(_queue, Options.SendBufferSize, held);
                if (moved > 0)
                    CountMoved(moved, held);
            }
        }
        if (logged)
            MulticastIntake.MoveCursor(this, cursor.LogEnd, held);
    }
}
