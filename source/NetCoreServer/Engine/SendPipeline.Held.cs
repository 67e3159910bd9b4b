using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Engine;

/// <summary>The send pipeline's held bytes: what the cork stage holds for a read, and the multicast log the cursor takes from.</summary>
internal sealed partial class SendPipeline
{
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
    /// stage is another connection's or full), else its outcome.
    /// </summary>
    private SendStatus? TryStage<T>(CorkStage stage, scoped ref T message, int length)
        where T : IMessageWriter, allows ref struct
    {
        lock (stage)
        {
            if (stage.Owner != this && !AttachLocked(stage))
                return null;
            if (!stage.FitsLocked(length) || !_engine.AcceptsSends)
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

    /// <summary>
    /// Under the stage's lock: takes a free stage for this pipeline, with the room its limits leave now (a racy look at
    /// the queue, which only grows under the session lock; the send loop shrinks it). False when the stage is another's or no room is left.
    /// </summary>
    private bool AttachLocked(CorkStage stage)
    {
        if (stage.Owner != null)
            return false;
        var options = Options;
        var queued = _queue.Bytes;
        var room = SendCork.LimitFor(options) - queued;
        var limit = options.SendBufferLimit;
        if (limit > 0)
            room = Math.Min(room, limit - queued - _queue.Sending);
        if (room <= 0)
            return false;
        stage.AttachLocked(this, Math.Max(SendQueue.MinChunkSize, options.SendBufferSize), room);
        // Published before the caller's checks: a close or a disconnect either sees the stage and moves it, or is seen by them.
        Interlocked.Exchange(ref _stage, stage);
        return true;
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
}
