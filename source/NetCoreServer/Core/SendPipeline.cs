using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// The sending side of a session: the bounded <see cref="SendQueue"/>, the multicast messages its cursor takes from
/// the log, the <see cref="SendCork"/>, the <see cref="Backpressure"/> and one sender at a time: the send loop, or a
/// blocking send writing directly. Nothing is sent before the transport is ready (after the TLS handshake).
/// </summary>
/// <remarks>
/// Made by the engine on the first send or multicast: an idle connection has none. Its state is guarded by the session
/// lock (the engine's monitor); the counters and flags marked so are read without it. Published multicast messages
/// are moved into the queue (<see cref="MaterializeLocked"/>) before anything is taken from or added to it, which keeps
/// multicast and the session's own sends in the order they were made. Messages that write themselves
/// (<see cref="EnqueueWritten{T}"/>) during a corked read go to the receive thread's <see cref="CorkStage"/> and are
/// moved in by <see cref="SettleLocked"/>; lock order: the session lock, then the stage's.
/// </remarks>
internal sealed class SendPipeline : IThreadPoolWorkItem
{
    private readonly StreamSessionEngine _engine;
    private readonly SendQueue _queue = new();
    private readonly Backpressure _backpressure;
    private SendWaiters? _waiters;
    // The receive thread's stage while it holds frames for this pipeline (CorkStage); written under the stage's lock.
    private CorkStage? _stage;
    private int _flags;
    // OnEmpty hooks running: the engine does not finish under one.
    private short _emptyRaising;

    public SendPipeline(StreamSessionEngine engine)
    {
        _engine = engine;
        _backpressure = new Backpressure(engine);
    }

    [Flags]
    private enum Flag
    {
        // The sender role is held (the send loop runs, or a blocking send writes); read without the lock by WakeForLog.
        Running = 1,
        // The send loop waits in a transport call, or for the pool to run it.
        Parked = 2,
    }

    public bool Unwritable => _backpressure.Unwritable;

    public bool IsWritable => !Unwritable;

    /// <summary>Bytes accepted and not yet handed to the transport.</summary>
    public long BytesPending
    {
        get
        {
            lock (_engine)
            {
                SettleLocked();
                return _queue.Bytes;
            }
        }
    }

    /// <summary>Bytes handed to the transport in the send under way.</summary>
    public long BytesSending => _queue.ReadSending();

    /// <summary>Bytes sent over the connection's life.</summary>
    public long BytesSent => _queue.ReadSent();

    /// <summary>Nothing accepted waits and no sender runs; under the lock.</summary>
    public bool IsDrainedLocked => !Running && _queue.IsEmpty && Volatile.Read(ref _stage) == null;

    /// <summary>Nothing here holds a finish back: no sender, or it waits in a transport call, and no OnEmpty runs; under the lock.</summary>
    public bool QuiescentLocked => (!Running || Has(Flag.Parked)) && _emptyRaising == 0;

    public bool RunningLocked => Running;

    private bool Running
    {
        get => Has(Flag.Running);
        set => Set(Flag.Running, value);
    }

    private EngineOptions Options => _engine.Options;

    public bool TakeRefusalReport() => _backpressure.TakeRefusalReport();

    /// <summary>Queues <paramref name="head"/> and <paramref name="body"/> (copied) as one unit: no other send comes between them.</summary>
    public SendStatus Enqueue(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        bool start;
        lock (_engine)
        {
            SettleLocked();
            var status = CheckAcceptLocked(head.Length + body.Length);
            if (status != SendStatus.Accepted)
                return status;
            AppendLocked(head, body);
            start = AcceptedLocked(head.Length + body.Length, mayHold: true);
        }
        _backpressure.Notify();
        if (start)
            RunSendLoop();
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
        if (SendCork.StageFor(_engine) is { } stage)
        {
            var staged = TryStage(stage, ref message, length, options);
            if (staged.HasValue)
                return staged.Value;
        }
        bool start;
        lock (_engine)
        {
            SettleLocked();
            var status = CheckAcceptLocked(length, options);
            if (status != SendStatus.Accepted)
                return status;
            if (!message.Commit())
                return SendStatus.NotConnected;
            var writer = new QueueWriter(_queue, options.SendBufferSize);
            message.WriteTo(ref writer);
            Debug.Assert(writer.Written == length, "a message writes exactly its length");
            start = AcceptedLocked(length, mayHold: true, options);
        }
        _backpressure.Notify();
        if (start)
            RunSendLoop();
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Like <see cref="Enqueue"/>, but the body is queued by reference: its bytes must stay unchanged until sent. Once
    /// accepted, <paramref name="bodyOwner"/> is disposed when the body has been sent or dropped; when refused, the caller keeps it.
    /// </summary>
    public SendStatus EnqueueBorrowed(ReadOnlySpan<byte> head, ArraySegment<byte> body, IDisposable? bodyOwner)
    {
        bool start;
        lock (_engine)
        {
            SettleLocked();
            var status = CheckAcceptLocked(head.Length + body.Count);
            if (status != SendStatus.Accepted)
                return status;
            AppendLocked(head, default);
            if (body.Count > 0)
                _queue.AppendBorrowed(body, bodyOwner);
            start = AcceptedLocked(head.Length + body.Count, mayHold: true);
        }
        if (body.Count == 0)
            bodyOwner?.Dispose();
        _backpressure.Notify();
        if (start)
            RunSendLoop();
        return SendStatus.Accepted;
    }

    /// <summary>Queues <paramref name="data"/> and completes with true once it has been handed to the transport, false if the connection ends first.</summary>
    public Task<bool> EnqueueAndWait(ReadOnlySpan<byte> data, out SendStatus status)
    {
        Task<bool> task;
        bool start;
        lock (_engine)
        {
            SettleLocked();
            status = CheckAcceptLocked(data.Length);
            if (status != SendStatus.Accepted)
                return Task.FromResult(false);
            AppendLocked(data, default);
            start = AcceptedLocked(data.Length, mayHold: false);
            task = AddWaiterLocked();
        }
        _backpressure.Notify();
        if (start)
            RunSendLoop();
        return task;
    }

    /// <summary>Completes once everything accepted so far has been handed to the transport.</summary>
    public Task<bool> Flush()
    {
        Task<bool> task;
        bool start;
        lock (_engine)
        {
            SettleLocked();
            if (!Running && _queue.IsEmpty)
                return Task.FromResult(_engine.State is SessionState.Connected or SessionState.Disconnecting);
            if (_engine.Closed)
                return Task.FromResult(false);
            task = AddWaiterLocked();
            // Called from a receive hook, the cork may hold the bytes this waits for.
            start = StartHeldLocked();
        }
        if (start)
            RunSendLoop();
        return task;
    }

    /// <summary>
    /// NetCoreServer's blocking send of a message in one or two pieces, as one unit: blocks until the bytes are handed to
    /// the transport, in order with queued sends. It writes directly when nothing else is sending; otherwise it queues
    /// and waits, except where waiting would wait on itself (inside OnSent/OnEmpty, inside a hook before the TLS
    /// handshake, or on an event loop's thread), where it queues and returns.
    /// </summary>
    public long SendBlocking(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        var length = head.Length + body.Length;
        if (length == 0)
            return 0;
        Task<bool>? wait = null;
        bool direct;
        var start = false;
        lock (_engine)
        {
            if (!_engine.AcceptsSends)
                return 0;
            SettleLocked();
            var onLoop = Transports.EventLoop.IsLoopThread;
            direct = _engine.Ready && !Running && _queue.IsEmpty && !onLoop;
            if (direct)
            {
                Running = true;
                _queue.Sending = length;
                _queue.AcceptedTotal += length;
            }
            else
            {
                AppendLocked(head, body);
                start = AcceptedLocked(length, mayHold: false);
                if (!onLoop && !Hooks.Inside(_engine, HookKind.Sending) && (_engine.Ready || !Hooks.Inside(_engine)))
                    wait = AddWaiterLocked();
            }
        }

        if (!direct)
        {
            _backpressure.Notify();
            if (start)
                RunSendLoop();
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
            RunSendLoop();
        return result.Bytes;
    }

    /// <summary>The transport became ready (TLS: handshaked): sends what waited, or raises OnEmpty when nothing did.</summary>
    public void StartWaiting(bool raiseEmpty)
    {
        bool start, empty;
        lock (_engine)
        {
            SettleLocked();
            empty = !Running && _queue.IsEmpty;
            start = !Running && !_queue.IsEmpty && !_engine.Closed;
            if (start)
                Running = true;
        }
        if (start)
            RunSendLoop();
        else if (empty && raiseEmpty && _engine.State == SessionState.Connected)
            _engine.RunHook(HookKind.Sending, 0, static (e, _) => e.Host.EngineEmpty());
    }

    /// <summary>Starts sending what the cork holds now (the read has been handled, or the connection is about to close).</summary>
    public void SendHeld()
    {
        bool start, idle;
        lock (_engine)
        {
            SettleLocked();
            start = StartHeldLocked();
            idle = !start && !Running && _engine.State != SessionState.Connected;
        }
        if (start)
            RunSendLoop();
        else if (idle)
            // A disconnect that found the queue empty while frames were staged waits for them: they are moved now.
            _engine.BeginShutdownIfDrained();
    }

    /// <summary>Moves what this thread staged into the queue (before a multicast from a hook), without starting the loop.</summary>
    public void Settle()
    {
        lock (_engine)
            SettleLocked();
    }

    /// <summary>
    /// A corked frame goes to this thread's <paramref name="stage"/>, without the session lock: null when it must take the locked path (the
    /// stage is another connection's, full, or the limits are near), else its outcome.
    /// </summary>
    private SendStatus? TryStage<T>(CorkStage stage, scoped ref T message, int length, EngineOptions options)
        where T : IMessageWriter, allows ref struct
    {
        // A racy look at the queue (it only grows under the session lock, and the loop shrinks it): near a limit the locked path decides.
        var queued = _queue.Bytes;
        var room = SendCork.LimitFor(options) - queued;
        var limit = options.SendBufferLimit;
        if (limit > 0)
            room = Math.Min(room, limit - queued - _queue.Sending);
        var chunk = Math.Max(SendQueue.MinChunkSize, options.SendBufferSize);
        if (length > room || length > chunk)
            return null;
        lock (stage)
        {
            var owner = stage.Owner;
            if (owner != this)
            {
                if (owner != null)
                    return null;
                stage.AttachLocked(this, chunk);
                // Published before the checks below: a close or a disconnect either sees the stage and moves it, or is seen by them.
                Interlocked.Exchange(ref _stage, stage);
            }
            if (stage.Length + length > Math.Min(room, stage.Capacity) || !_engine.AcceptsSends)
                return null;
            if (!message.Commit())
                return SendStatus.NotConnected;
            var writer = new QueueWriter(stage.RoomLocked(length));
            message.WriteTo(ref writer);
            Debug.Assert(writer.Written == length, "a message writes exactly its length");
            stage.AdvanceLocked(length);
        }
        return SendStatus.Accepted;
    }

    /// <summary>True when the caller must run the send loop for what waits in the queue.</summary>
    private bool StartHeldLocked()
    {
        if (Running || !_engine.Ready || _engine.Closed || _queue.IsEmpty)
            return false;
        Running = true;
        return true;
    }

    /// <summary>Queues every published multicast message this session has not taken yet (the engine, before it leaves the log).</summary>
    public void TakeLoggedLocked() => MaterializeLocked();

    /// <summary>
    /// By the multicasting thread under the log's lock, for a message at [start, end) not yet published: Accepted,
    /// NotConnected (not attached), or LimitReached, in which case this session skips it.
    /// </summary>
    public SendStatus OfferLogged(long start, long end)
    {
        var limit = Options.SendBufferLimit;
        if (limit <= 0)
            return SendStatus.Accepted;
        var length = end - start;
        ref var cursor = ref _engine.Cursor;
        // A racy first look: the queue only grows under the log lock the caller holds or under the session lock, checked below.
        if (_queue.Bytes + _queue.ReadSending() + (start - cursor.Position) + length <= limit)
            return SendStatus.Accepted;
        lock (_engine)
        {
            if (!cursor.IsAttached)
                return SendStatus.NotConnected;
            MoveCursorLocked(start);
            if (_queue.Bytes + _queue.Sending + length <= limit)
                return SendStatus.Accepted;
            cursor.PassTo(end);
            return SendStatus.LimitReached;
        }
    }

    /// <summary>By the multicasting thread under the log's lock: this session is not to receive [start, end) (a WebSocket not upgraded, or closing).</summary>
    public void SkipLogged(long start, long end)
    {
        lock (_engine)
        {
            ref var cursor = ref _engine.Cursor;
            if (!cursor.IsAttached)
                return;
            MoveCursorLocked(start);
            cursor.PassTo(end);
        }
    }

    /// <summary>
    /// After a publication (and a full fence): starts an idle send loop on the thread pool, not inline, so the
    /// multicasting thread does not make one send per message per session; a running loop takes the message itself.
    /// </summary>
    public void WakeForLog()
    {
        if (Running)
            return;
        lock (_engine)
        {
            if (!_engine.Cursor.IsAttached || Running || !_engine.Ready || _engine.Closed)
                return;
            MaterializeLocked();
            if (_queue.IsEmpty)
                return;
            Running = true;
            // Until the pool runs it the loop waits as a pending send does: a close need not wait for it.
            Set(Flag.Parked, true);
        }
        _backpressure.Notify();
        ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
    }

    /// <summary>Runs a deferred send loop (see <see cref="WakeForLog"/>).</summary>
    void IThreadPoolWorkItem.Execute()
    {
        Unpark();
        RunSendLoop();
    }

    /// <summary>Fails what waits to be sent (the socket closed): the queue is dropped and waiting callers get false.</summary>
    public void FailQueued()
    {
        TaskCompletionSource<bool>[]? failed;
        lock (_engine)
        {
            _queue.Clear();
            DropStagedLocked();
            failed = _waiters?.TakeAllLocked();
        }
        SendWaiters.Complete(failed, delivered: false);
    }

    /// <summary>
    /// Before a send, flush or count that must not pass what the receive thread staged: moves the published multicast
    /// messages, then the staged bytes, into the queue; under the lock. The send loop does not call it: it leaves a
    /// corked read's frames to the end of the read.
    /// </summary>
    private void SettleLocked()
    {
        MaterializeLocked();
        var stage = Volatile.Read(ref _stage);
        if (stage == null)
            return;
        int moved;
        lock (stage)
        {
            Volatile.Write(ref _stage, null);
            if (stage.Owner != this)
                return;
            moved = stage.Length;
            // Bytes staged while the connection was being torn down are dropped with the queue.
            if (moved > 0 && !_engine.Closed)
                _queue.Append(stage.StagedLocked, Options.SendBufferSize);
            else
                moved = 0;
            stage.ReleaseLocked();
        }
        if (moved == 0)
            return;
        _queue.AcceptedTotal += moved;
        _backpressure.RaiseLocked(_queue.Bytes + _queue.Sending);
    }

    /// <summary>Drops what is staged for this pipeline (the socket closed); under the lock.</summary>
    private void DropStagedLocked()
    {
        var stage = Volatile.Read(ref _stage);
        if (stage == null)
            return;
        lock (stage)
        {
            Volatile.Write(ref _stage, null);
            if (stage.Owner == this)
                stage.ReleaseLocked();
        }
    }

    /// <summary>Moves the published multicast messages into the queue; under the lock.</summary>
    private void MaterializeLocked()
    {
        ref var cursor = ref _engine.Cursor;
        if (cursor.IsAttached && cursor.Position < cursor.LogEnd)
            MoveCursorLocked(cursor.LogEnd);
    }

    private void MoveCursorLocked(long to)
    {
        var moved = _engine.Cursor.MoveTo(to, _queue);
        if (moved == 0)
            return;
        _queue.AcceptedTotal += moved;
        _backpressure.RaiseLocked(_queue.Bytes + _queue.Sending);
    }

    private void AppendLocked(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        var chunk = Options.SendBufferSize;
        _queue.Append(head, chunk);
        if (!body.IsEmpty)
            _queue.Append(body, chunk);
    }

    private SendStatus CheckAcceptLocked(int length) => CheckAcceptLocked(length, Options);

    private SendStatus CheckAcceptLocked(int length, EngineOptions options)
    {
        if (!_engine.AcceptsSends)
            return SendStatus.NotConnected;
        var limit = options.SendBufferLimit;
        if (limit > 0 && _queue.Bytes + _queue.Sending + length > limit)
            return SendStatus.LimitReached;
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Counts accepted bytes; true when the caller must start the send loop. A send that is waited for never stays
    /// behind the cork (<paramref name="mayHold"/> false): it starts the loop, taking what the cork held with it.
    /// </summary>
    private bool AcceptedLocked(int length, bool mayHold) => AcceptedLocked(length, mayHold, Options);

    private bool AcceptedLocked(int length, bool mayHold, EngineOptions options)
    {
        _queue.AcceptedTotal += length;
        _backpressure.RaiseLocked(_queue.Bytes + _queue.Sending);
        if (Running || !_engine.Ready || (mayHold && SendCork.Holds(_engine) && _queue.Bytes < SendCork.LimitFor(options)))
            return false;
        Running = true;
        return true;
    }

    private Task<bool> AddWaiterLocked() => (_waiters ??= new SendWaiters()).AddLocked(_queue.AcceptedTotal);

    // Runs inline until the first send that does not complete synchronously, then on the completion thread: a loop, never recursion.
    private void RunSendLoop() => _ = SendLoopAsync();

    /// <summary>The sender role is held; sends batches until the queue is empty or the connection closes.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendLoopAsync()
    {
        var transport = _engine.Transport;
        while (NextBatchOrStop())
        {
            var send = transport.SendAsync(_queue.Batch!.Views);
            var result = await (send.IsCompleted ? send : ParkedAsync(send)).ConfigureAwait(false);
            if (!CompleteSend(result, direct: false))
                return;
        }
    }

    /// <summary>Takes the next batch (true), or gives up the sender role (false): then OnEmpty, a pending shutdown, or teardown.</summary>
    private bool NextBatchOrStop()
    {
        bool closed, empty;
        lock (_engine)
        {
            closed = _engine.Closed;
            if (!closed)
                MaterializeLocked();
            if (!closed && TakeBatchLocked())
                return true;
            _queue.Batch?.Clear();
            _queue.Sending = 0;
            Running = false;
            if (!closed && _engine.Cursor.IsAttached)
            {
                // A multicast publishes, fences, then looks at Running: either it saw the loop running, and this second
                // look after the same fence sees its message, or it saw the loop stopped and wakes it itself.
                Interlocked.MemoryBarrier();
                MaterializeLocked();
                if (TakeBatchLocked())
                {
                    Running = true;
                    return true;
                }
            }
            // Counted until the hook returns: with the sender role given up, a disconnect could otherwise finish,
            // OnDisconnected included, between the check and OnEmpty.
            empty = !closed && _engine.State == SessionState.Connected;
            if (empty)
                _emptyRaising++;
        }
        if (closed)
        {
            _engine.TryFinish();
        }
        else if (empty)
        {
            _engine.RunHook(HookKind.Sending, 0, static (e, _) => e.Host.EngineEmpty());
            lock (_engine)
                _emptyRaising--;
            _engine.TryFinish();
        }
        else
        {
            _engine.BeginShutdownIfDrained();
        }
        return false;
    }

    /// <summary>Awaits a transport send that did not complete at once, parked meanwhile (a close need not wait for it).</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<IoResult> ParkedAsync(ValueTask<IoResult> pending)
    {
        Park();
        try
        {
            return await pending.ConfigureAwait(false);
        }
        finally
        {
            Unpark();
        }
    }

    private void Park()
    {
        bool closed;
        lock (_engine)
        {
            Set(Flag.Parked, true);
            closed = _engine.Closed;
        }
        if (closed)
            _engine.TryFinish();
    }

    private void Unpark()
    {
        lock (_engine)
            Set(Flag.Parked, false);
    }

    /// <summary>The batch to send: what is left of the last one, else the next one from the queue; false when there is none.</summary>
    private bool TakeBatchLocked()
    {
        var batch = _queue.Batch ??= new InFlightBatch();
        if (batch.Count == 0 && !_queue.TakeBatch(batch))
            return false;
        _queue.Sending = batch.Bytes;
        return true;
    }

    /// <summary>Books a finished transport send of either sender: counters, waiters, OnSent. False when it failed (the sender role is given up).</summary>
    private bool CompleteSend(IoResult result, bool direct)
    {
        long pending = 0;
        TaskCompletionSource<bool>[]? done = null;
        TaskCompletionSource? writable = null;
        lock (_engine)
        {
            if (direct)
                _queue.Sending = 0;
            else if (result.Succeeded)
                _queue.Batch!.Consume(result.Bytes);
            _queue.AddSent(result.Bytes);
            if (result.Succeeded)
            {
                // Published multicast bytes count as pending (for OnSent and the watermarks) like queued ones.
                MaterializeLocked();
                var inFlight = _queue.Batch?.Bytes ?? 0;
                _queue.Sending = inFlight;
                pending = _queue.Bytes + inFlight;
                done = _waiters?.TakeCompletedLocked(_queue.Sent);
                writable = _backpressure.LowerLocked(pending);
            }
            else
            {
                _queue.Batch?.Clear();
                _queue.Sending = 0;
                Running = false;
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

    private bool Has(Flag flag) => (Volatile.Read(ref _flags) & (int)flag) != 0;

    private void Set(Flag flag, bool value)
    {
        Debug.Assert(Monitor.IsEntered(_engine), "flags are written under the session lock");
        Volatile.Write(ref _flags, value ? _flags | (int)flag : _flags & ~(int)flag);
    }
}

/// <summary>Outcome of offering data to a connection's send queue.</summary>
internal enum SendStatus
{
    Accepted,
    NotConnected,
    LimitReached,
}
