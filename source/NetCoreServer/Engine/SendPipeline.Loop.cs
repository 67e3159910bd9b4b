using System;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

/// <summary>
/// The send pipeline's loop: one batch at a time to the transport, parked while a send is pending, its completion
/// counted; and its intake from the multicast log, which the loop reads as it goes.
/// </summary>
internal sealed partial class SendPipeline
{
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

    /// <summary>Queues every published multicast message this session has not taken yet (the engine, before it leaves the log).</summary>
    public void TakeLoggedLocked() => MaterializeLocked();

    /// <summary>
    /// By the multicasting thread under the log's lock, for a message at [start, end) not yet published: Accepted,
    /// NotConnected (not attached), or LimitReached, in which case this session skips it. When accepted,
    /// <paramref name="credit"/> is what the multicast may use on this session without asking again: the room left
    /// under the send limit, at most an eighth of the limit (a send of the session's own between two asks can then pass
    /// the limit by that much at most; see MulticastFanout).
    /// </summary>
    public SendStatus OfferLogged(long start, long end, out long credit)
    {
        credit = 0;
        var limit = Options.SendBufferLimit;
        if (limit <= 0)
        {
            credit = MulticastCreditWithoutLimit;
            return SendStatus.Accepted;
        }
        var length = end - start;
        ref var cursor = ref _engine.Cursor;
        // A racy first look: the queue only grows under the log lock the caller holds or under the session lock, checked below.
        var used = _queue.Bytes + _queue.ReadSending() + (start - cursor.Position) + length;
        if (used <= limit)
        {
            credit = Math.Min(limit - used, limit >> 3);
            return SendStatus.Accepted;
        }
        lock (_engine)
        {
            if (!cursor.IsAttached)
                return SendStatus.NotConnected;
            MoveCursorLocked(start);
            used = _queue.Bytes + _queue.Sending + length;
            if (used <= limit)
            {
                credit = Math.Min(limit - used, limit >> 3);
                return SendStatus.Accepted;
            }
            cursor.PassTo(end);
            return SendStatus.LimitReached;
        }
    }

    // Without a send limit a multicast still asks now and then: a limit set later applies within this many bytes.
    private const long MulticastCreditWithoutLimit = 64 * 1024;

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
            // A session joins the log before OnConnected: what it is sent waits until then (MarkReady takes it).
            if (!_engine.Cursor.IsAttached || Running || !_engine.Ready || _engine.Closed || _engine.State == SessionState.Connecting)
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
