using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// The sending side: the bounded queue and one sender at a time. The sender is either the send loop or a blocking
/// <see cref="SendBlocking(ReadOnlySpan{byte}, ReadOnlySpan{byte})"/> writing directly; both book their result through <see cref="CompleteSend"/>, and the
/// sender that finds the queue empty goes idle through <see cref="NextBatchOrStop"/> (OnEmpty, a pending shutdown,
/// or teardown). Nothing is sent before the transport is ready (after the TLS handshake): until then data waits.
/// </summary>
internal sealed partial class StreamSessionEngine : IThreadPoolWorkItem
{
    // Made by the first send (or multicast) the connection accepts: an idle connection needs none. Kept from then on,
    // so that steady sending allocates nothing.
    private SendQueue? _queue;
    private short _emptyRaising;

    /// <summary>
    /// True while connected, and also inside this connection's OnDisconnecting during a graceful disconnect, until
    /// the sending side shuts down.
    /// </summary>
    public bool AcceptsSends => State switch
    {
        SessionState.Connected => true,
        SessionState.Disconnecting => Hooks.Inside(this, HookKind.Disconnecting) && !ShutdownStarted && !Closed,
        _ => false,
    };

    /// <summary>Bytes accepted and not yet handed to the transport.</summary>
    public long BytesPending
    {
        get
        {
            lock (this)
            {
                MaterializeLocked();
                return QueuedBytes;
            }
        }
    }

    /// <summary>Bytes queued (read under the lock, or racily where stated).</summary>
    private long QueuedBytes => Volatile.Read(ref _queue)?.Bytes ?? 0;

    private bool QueueEmpty => QueuedBytes == 0;

    /// <summary>The send queue, made on first use; under the lock.</summary>
    private SendQueue Queue => _queue ??= new SendQueue();

    /// <summary>Copies <paramref name="data"/> into the queue, in chunks of the connection's send buffer size; under the lock.</summary>
    private void AppendLocked(ReadOnlySpan<byte> data) => Queue.Append(data, Options.SendBufferSize);

    /// <summary>Bytes handed to the transport in the send under way.</summary>
    public long BytesSending => Volatile.Read(ref _queue)?.ReadSending() ?? 0;

    /// <summary>Bytes handed to the transport and not yet sent; under the lock.</summary>
    private long SendingLocked => _queue?.Sending ?? 0;

    /// <summary>Bytes sent over the connection's life (counted by the queue: a connection that never sent holds no counter).</summary>
    public long BytesSent => Volatile.Read(ref _queue)?.ReadSent() ?? 0;

    /// <summary>Queues <paramref name="data"/> (copied). Refused when not connected or when the send limit would be passed.</summary>
    public SendStatus Enqueue(ReadOnlySpan<byte> data)
    {
        bool start;
        lock (this)
        {
            MaterializeLocked();
            var status = CheckAcceptLocked(data.Length);
            if (status != SendStatus.Accepted)
                return status;
            AppendLocked(data);
            start = AcceptedLocked(data.Length, mayHold: true);
        }
        NotifyWritability();
        if (start)
            RunSendLoop();
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Queues a message that goes out in two pieces (an HTTP head and its body, a frame header and its payload) as one
    /// unit: no other send can come between them. Both are copied; the send limit applies to the sum.
    /// </summary>
    public SendStatus Enqueue(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        bool start;
        lock (this)
        {
            MaterializeLocked();
            var status = CheckAcceptLocked(head.Length + body.Length);
            if (status != SendStatus.Accepted)
                return status;
            AppendLocked(head);
            AppendLocked(body);
            start = AcceptedLocked(head.Length + body.Length, mayHold: true);
        }
        NotifyWritability();
        if (start)
            RunSendLoop();
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Like <see cref="Enqueue(ReadOnlySpan{byte}, ReadOnlySpan{byte})"/>, but the body is queued by reference, not
    /// copied: its bytes must stay unchanged until sent. Once accepted, <paramref name="bodyOwner"/> belongs to the
    /// engine, which disposes it when the body has been sent or the connection dropped it; when refused, the caller
    /// keeps it.
    /// </summary>
    public SendStatus EnqueueBorrowed(ReadOnlySpan<byte> head, ArraySegment<byte> body, IDisposable? bodyOwner)
    {
        bool start;
        lock (this)
        {
            MaterializeLocked();
            var status = CheckAcceptLocked(head.Length + body.Count);
            if (status != SendStatus.Accepted)
                return status;
            AppendLocked(head);
            if (body.Count > 0)
                Queue.AppendBorrowed(body, bodyOwner);
            start = AcceptedLocked(head.Length + body.Count, mayHold: true);
        }
        if (body.Count == 0)
            bodyOwner?.Dispose();
        NotifyWritability();
        if (start)
            RunSendLoop();
        return SendStatus.Accepted;
    }

    /// <summary>Runs a deferred send loop (see <see cref="WakeForLog"/>).</summary>
    void IThreadPoolWorkItem.Execute()
    {
        Unpark(Loops.Send);
        RunSendLoop();
    }

    /// <summary>Queues <paramref name="data"/> and completes with true once it has been handed to the transport, false if the connection ends first.</summary>
    public Task<bool> EnqueueAndWait(ReadOnlySpan<byte> data, out SendStatus status)
    {
        Task<bool> task;
        bool start;
        lock (this)
        {
            MaterializeLocked();
            status = CheckAcceptLocked(data.Length);
            if (status != SendStatus.Accepted)
                return Task.FromResult(false);
            AppendLocked(data);
            start = AcceptedLocked(data.Length, mayHold: false);
            task = AddWaiterLocked();
        }
        NotifyWritability();
        if (start)
            RunSendLoop();
        return task;
    }

    /// <summary>Completes once everything accepted so far has been handed to the transport.</summary>
    public Task<bool> Flush()
    {
        Task<bool> task;
        bool start;
        lock (this)
        {
            MaterializeLocked();
            if (!SendRunning && QueueEmpty)
                return Task.FromResult(State is SessionState.Connected or SessionState.Disconnecting);
            if (Closed)
                return Task.FromResult(false);
            task = AddWaiterLocked();
            // Called from a receive hook, the cork may hold the bytes this waits for.
            start = StartHeldLocked();
        }
        if (start)
            RunSendLoop();
        return task;
    }

    /// <summary>The transport is ready for data (plain sockets from the start, TLS after the handshake): start sending what waited.</summary>
    private void MarkReady(bool raiseEmpty)
    {
        bool start, empty;
        lock (this)
        {
            Ready = true;
            MaterializeLocked();
            empty = !SendRunning && QueueEmpty;
            start = !SendRunning && !QueueEmpty && !Closed;
            if (start)
                SendRunning = true;
        }
        if (start)
            RunSendLoop();
        else if (empty && raiseEmpty && State == SessionState.Connected)
            RunHook(HookKind.Sending, 0, static (e, _) => e._host.EngineEmpty());
        BeginShutdownIfDrained();
    }

    private SendStatus CheckAcceptLocked(int length)
    {
        if (!AcceptsSends)
            return SendStatus.NotConnected;
        var limit = Options.SendBufferLimit;
        if (limit > 0 && QueuedBytes + SendingLocked + length > limit)
            return SendStatus.LimitReached;
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Counts accepted bytes; true when the caller must start the send loop. A send that is waited for never stays
    /// behind the cork (<paramref name="mayHold"/> false): it starts the loop, taking what the cork held with it.
    /// </summary>
    private bool AcceptedLocked(int length, bool mayHold)
    {
        Queue.AcceptedTotal += length;
        RaiseWatermarkLocked();
        if (SendRunning || !Ready || (mayHold && CorkedLocked()))
            return false;
        SendRunning = true;
        return true;
    }

    private Task<bool> AddWaiterLocked()
    {
        var waiter = new SendWaiter(Queue.AcceptedTotal);
        (Side.Waiters ??= new Queue<SendWaiter>()).Enqueue(waiter);
        return waiter.Task;
    }

    // Runs inline until the first send that does not complete synchronously; the loop then continues on the
    // completion thread. A loop, never recursion, whatever the hooks call.
    private void RunSendLoop() => _ = SendLoopAsync();

    /// <summary>The sender role is held (<see cref="SendRunning"/>); sends batches until the queue is empty or the connection closes.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendLoopAsync()
    {
        while (NextBatchOrStop())
        {
            // The sender's own batch: the queue exists once one was taken, and is never replaced.
            var send = _transport.SendAsync(_queue!.Batch!.Views);
            var result = await (send.IsCompleted ? send : ParkedAsync(send, Loops.Send)).ConfigureAwait(false);
            if (!CompleteSend(result, direct: false))
                return;
        }
    }

    /// <summary>Takes the next batch (true), or gives up the sender role (false): then OnEmpty, a pending shutdown, or teardown.</summary>
    private bool NextBatchOrStop()
    {
        bool closed, empty;
        lock (this)
        {
            closed = Closed;
            if (!closed)
                MaterializeLocked();
            var queue = _queue;
            if (!closed && queue != null && TakeBatchLocked(queue))
                return true;
            if (queue != null)
            {
                queue.Batch?.Clear();
                queue.Sending = 0;
            }
            SendRunning = false;
            if (!closed && LogAttached)
            {
                // A multicast publishes, fences, then looks at SendRunning: either it saw the loop running, and this
                // second look after the same fence sees its message, or it saw the loop stopped and wakes it itself.
                Interlocked.MemoryBarrier();
                MaterializeLocked();
                queue = _queue;
                if (queue != null && TakeBatchLocked(queue))
                {
                    SendRunning = true;
                    return true;
                }
            }
            // Decided here and counted until the hook returns: with the sender role given up, a disconnect could
            // otherwise finish, OnDisconnected included, between the check and OnEmpty.
            empty = !closed && State == SessionState.Connected;
            if (empty)
                _emptyRaising++;
        }
        if (closed)
        {
            TryFinish();
        }
        else if (empty)
        {
            RunHook(HookKind.Sending, 0, static (e, _) => e._host.EngineEmpty());
            lock (this)
                _emptyRaising--;
            TryFinish();
        }
        else
        {
            BeginShutdownIfDrained();
        }
        return false;
    }

    /// <summary>Awaits a transport call that did not complete at once, with <paramref name="loop"/> parked meanwhile.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<IoResult> ParkedAsync(ValueTask<IoResult> pending, Loops loop)
    {
        Park(loop);
        try
        {
            return await pending.ConfigureAwait(false);
        }
        finally
        {
            Unpark(loop);
        }
    }

    /// <summary>The batch to send: what is left of the last one, else the next one from the queue; false when there is none.</summary>
    private static bool TakeBatchLocked(SendQueue queue)
    {
        var batch = queue.Batch ??= new InFlightBatch();
        if (batch.Count == 0 && !queue.TakeBatch(batch))
            return false;
        queue.Sending = batch.Bytes;
        return true;
    }

    /// <summary>Books a finished transport send of either sender: counters, waiters, OnSent. False when it failed (the sender role is given up).</summary>
    private bool CompleteSend(IoResult result, bool direct)
    {
        long pending = 0;
        SendWaiter[]? done = null;
        TaskCompletionSource? writable = null;
        lock (this)
        {
            // A send was made, so the queue exists.
            var queue = _queue!;
            if (direct)
                queue.Sending = 0;
            else if (result.Succeeded)
                queue.Batch!.Consume(result.Bytes);
            queue.AddSent(result.Bytes);
            if (result.Succeeded)
            {
                // Published multicast bytes count as pending (for OnSent and the watermarks) like queued ones.
                MaterializeLocked();
                var inFlight = queue.Batch?.Bytes ?? 0;
                queue.Sending = inFlight;
                pending = QueuedBytes + inFlight;
                done = TakeCompletedWaitersLocked();
                writable = LowerWatermarkLocked(pending);
            }
            else
            {
                queue.Batch?.Clear();
                queue.Sending = 0;
                SendRunning = false;
            }
        }
        _host.EngineCounted(0, result.Bytes);
        if (!result.Succeeded)
        {
            OnTransportError(result.Error);
            FailQueuedSends();
            TryFinish();
            return false;
        }
        CompleteWaiters(done);
        writable?.TrySetResult();
        NotifyWritability();
        if (State == SessionState.Connected)
            RunHook(HookKind.Sending, (result.Bytes, pending), static (e, a) => e._host.EngineSent(a.Bytes, a.pending));
        return true;
    }

    private SendWaiter[]? TakeCompletedWaitersLocked()
    {
        var waiters = _side?.Waiters;
        if (waiters == null || waiters.Count == 0)
            return null;
        // Waiters exist only after an accepted send, which made the queue.
        var sent = _queue!.Sent;
        var count = 0;
        foreach (var waiter in waiters)
        {
            if (waiter.Target > sent)
                break;
            count++;
        }
        if (count == 0)
            return null;
        var done = new SendWaiter[count];
        for (var i = 0; i < count; i++)
            done[i] = waiters.Dequeue();
        return done;
    }

    private static void CompleteWaiters(SendWaiter[]? done)
    {
        if (done == null)
            return;
        foreach (var waiter in done)
            waiter.Complete(true);
    }

    private void FailQueuedSends()
    {
        SendWaiter[]? failed = null;
        lock (this)
        {
            _queue?.Clear();
            var waiters = _side?.Waiters;
            if (waiters != null && waiters.Count > 0)
            {
                failed = waiters.ToArray();
                waiters.Clear();
            }
        }
        if (failed != null)
        {
            foreach (var waiter in failed)
                waiter.Complete(false);
        }
    }

    private sealed class SendWaiter
    {
        private readonly TaskCompletionSource<bool> _source = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public SendWaiter(long target) => Target = target;

        /// <summary>Completed once this many bytes have been sent in total.</summary>
        public long Target { get; }

        public Task<bool> Task => _source.Task;

        public void Complete(bool delivered) => _source.TrySetResult(delivered);
    }
}

/// <summary>Outcome of offering data to a connection's send queue.</summary>
internal enum SendStatus
{
    Accepted,
    NotConnected,
    LimitReached,
}
