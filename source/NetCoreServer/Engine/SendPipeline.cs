using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

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
/// (<see cref="EnqueueWritten{T}"/>) during a corked read are staged in the receive thread's <see cref="SendCork"/> and
/// moved in by <see cref="SettleLocked"/>; lock order: the session lock, then the cork's.
/// </remarks>
internal sealed partial class SendPipeline : IThreadPoolWorkItem
{
    private readonly StreamSessionEngine _engine;
    private readonly SendQueue _queue = new();
    // A mutable struct: never copied, always used in place.
    private Backpressure _backpressure;
    private SendWaiters? _waiters;
    // The receive thread's cork while it stages frames for this pipeline; written under the cork's lock.
    private SendCork? _stage;
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
        // The send loop waits in a transport call, or for the pool to run it. (The sender role is the engine's SendRunning.)
        Parked = 1,
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
        get => _engine.SendRunning;
        set => _engine.SendRunning = value;
    }

    private EngineOptions Options => _engine.Options;

    public bool TakeRefusalReport() => _backpressure.TakeRefusalReport();

    public bool TakeSlowConsumerReport() => _backpressure.TakeSlowConsumerReport();

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
        if (SendCork.For(_engine, _stage) is { } cork && cork.TryStage(this, ref message, length, out var staged))
            return staged;
        var options = Options;
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
            var onLoop = IStreamTransport.IsLoopThread;
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

    /// <summary>Runs a deferred send loop (see <see cref="WakeForLog"/>).</summary>
    void IThreadPoolWorkItem.Execute()
    {
        Unpark();
        RunSendLoop();
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

    private bool Has(Flag flag) => (Volatile.Read(ref _flags) & (int)flag) != 0;

    private void Set(Flag flag, bool value)
    {
        Debug.Assert(Monitor.IsEntered(_engine), "flags are written under the session lock");
        Volatile.Write(ref _flags, value ? _flags | (int)flag : _flags & ~(int)flag);
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

    /// <summary>True when the caller must run the send loop for what waits in the queue.</summary>
    private bool StartHeldLocked()
    {
        if (Running || !_engine.Ready || _engine.Closed || _queue.IsEmpty)
            return false;
        Running = true;
        return true;
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
        // Bytes staged while the connection was being torn down are dropped with the queue.
        var moved = stage.MoveTo(this, ref _stage, _engine.Closed ? null : _queue, Options.SendBufferSize);
        if (moved == 0)
            return;
        _queue.AcceptedTotal += moved;
        _backpressure.RaiseLocked(_queue.Bytes + _queue.Sending);
    }

    /// <summary>Drops what is staged for this pipeline (the socket closed); under the lock.</summary>
    private void DropStagedLocked() => Volatile.Read(ref _stage)?.MoveTo(this, ref _stage, null, 0);

    /// <summary>
    /// The room a cork may stage for this pipeline now, and the chunk size of its buffer: a racy look at the queue, which
    /// only grows under the session lock (which settles the stage first) and shrinks as the loop sends.
    /// </summary>
    public long StageRoom(out int chunkSize)
    {
        var options = Options;
        var queued = _queue.Bytes;
        var room = SendCork.LimitFor(options) - queued;
        var limit = options.SendBufferLimit;
        if (limit > 0)
            room = Math.Min(room, limit - queued - _queue.Sending);
        chunkSize = Math.Max(SendQueue.MinChunkSize, options.SendBufferSize);
        return room;
    }

    /// <summary>A cork stages for this pipeline (under the stage's lock): a settle or a close now finds it.</summary>
    public void PublishStage(SendCork stage) => Interlocked.Exchange(ref _stage, stage);

    /// <summary>The engine still takes sends (connected, not disconnecting).</summary>
    public bool AcceptsSends => _engine.AcceptsSends;
}

/// <summary>Outcome of offering data to a connection's send queue.</summary>
internal enum SendStatus
{
    Accepted,
    NotConnected,
    LimitReached,
}
