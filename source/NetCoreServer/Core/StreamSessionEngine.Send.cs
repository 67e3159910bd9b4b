using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

internal sealed partial class StreamSessionEngine
{
    private readonly object _sendLock = new();
    private readonly SendQueue _queue;
    private readonly InFlightBatch _batch = new();
    private Queue<SendWaiter>? _waiters;
    private bool _sendRunning;
    private long _bytesSending;
    private long _bytesSent;
    private long _acceptedTotal;

    /// <summary>Bytes accepted and not yet handed to the transport.</summary>
    public long BytesPending
    {
        get
        {
            lock (_sendLock)
                return _queue.Bytes;
        }
    }

    /// <summary>Bytes handed to the transport in the send under way.</summary>
    public long BytesSending => Interlocked.Read(ref _bytesSending);

    public long BytesSent => Interlocked.Read(ref _bytesSent);

    /// <summary>Queues <paramref name="data"/> (copied). False when not connected or when the send limit would be passed.</summary>
    public SendStatus Enqueue(ReadOnlySpan<byte> data)
    {
        bool start;
        lock (_sendLock)
        {
            var status = CheckAcceptLocked(data.Length);
            if (status != SendStatus.Accepted)
                return status;
            _queue.Append(data);
            start = AcceptedLocked(data.Length);
        }
        if (start)
            RunSendLoop();
        return SendStatus.Accepted;
    }

    /// <summary>
    /// Multicast path: queues a copy (small messages) or a reference to a shared block, and starts an idle send
    /// loop on the thread pool rather than inline. The caller is looping over every session; sending inline would
    /// cost one syscall per message per session, while a deferred loop picks up everything queued meanwhile in one
    /// gathered write.
    /// </summary>
    public SendStatus EnqueueDeferred(ReadOnlySpan<byte> data, SharedBuffer? shared)
    {
        bool start;
        var length = shared?.Length ?? data.Length;
        lock (_sendLock)
        {
            var status = CheckAcceptLocked(length);
            if (status != SendStatus.Accepted)
                return status;
            if (shared != null)
                _queue.AppendShared(shared);
            else
                _queue.Append(data);
            start = AcceptedLocked(length);
        }
        if (start)
            ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
        return SendStatus.Accepted;
    }

    /// <summary>Runs a deferred send loop (see <see cref="EnqueueDeferred"/>).</summary>
    void IThreadPoolWorkItem.Execute() => RunSendLoop();

    /// <summary>Queues <paramref name="data"/> and completes with true once it has been handed to the transport, false if the connection ends first.</summary>
    public Task<bool> EnqueueAndWait(ReadOnlySpan<byte> data, out SendStatus status)
    {
        Task<bool> task;
        bool start;
        lock (_sendLock)
        {
            status = CheckAcceptLocked(data.Length);
            if (status != SendStatus.Accepted)
                return Task.FromResult(false);
            _queue.Append(data);
            start = AcceptedLocked(data.Length);
            task = AddWaiterLocked();
        }
        if (start)
            RunSendLoop();
        return task;
    }

    /// <summary>Completes once everything accepted so far has been handed to the transport.</summary>
    public Task<bool> Flush()
    {
        lock (_sendLock)
        {
            if (!_sendRunning && _queue.IsEmpty)
                return Task.FromResult(State == SessionState.Connected || State == SessionState.Disconnecting);
            if (Volatile.Read(ref _closed) != 0)
                return Task.FromResult(false);
            return AddWaiterLocked();
        }
    }

    /// <summary>
    /// NetCoreServer's synchronous send: blocks until the bytes are handed to the socket, in order with queued
    /// asynchronous sends. Called from an OnSent/OnEmpty hook it queues without waiting (waiting there would wait on itself).
    /// </summary>
    public long SendBlocking(ReadOnlySpan<byte> data)
    {
        if (data.IsEmpty)
            return 0;
        bool direct;
        Task<bool>? wait = null;
        bool start = false;
        lock (_sendLock)
        {
            if (!AcceptsSends)
                return 0;
            direct = !_sendRunning && _queue.IsEmpty;
            if (direct)
            {
                _sendRunning = true;
                _bytesSending = data.Length;
                _acceptedTotal += data.Length;
            }
            else
            {
                _queue.Append(data);
                start = AcceptedLocked(data.Length);
                if (t_sendCallbackOwner != this)
                    wait = AddWaiterLocked();
            }
        }

        if (!direct)
        {
            if (start)
                RunSendLoop();
            return wait == null || wait.GetAwaiter().GetResult() ? data.Length : 0;
        }

        var result = _transport.Send(data);
        bool restart;
        long pending;
        SendWaiter[]? done;
        lock (_sendLock)
        {
            _bytesSending = 0;
            _bytesSent += result.Bytes;
            restart = result.Succeeded && !_queue.IsEmpty && Volatile.Read(ref _closed) == 0;
            _sendRunning = restart;
            pending = _queue.Bytes;
            done = result.Succeeded ? TakeCompletedWaitersLocked() : null;
        }
        _host.EngineCounted(0, result.Bytes);
        if (!result.Succeeded)
        {
            OnTransportError(result.Error);
            TryFinish();
            return result.Bytes;
        }
        CompleteWaiters(done);
        if (State == SessionState.Connected)
            RaiseSent(result.Bytes, pending);
        if (restart)
            RunSendLoop();
        else
            AfterDrained();
        return result.Bytes;
    }

    private SendStatus CheckAcceptLocked(int length)
    {
        if (!AcceptsSends)
            return SendStatus.NotConnected;
        var limit = _options.SendBufferLimit;
        if (limit > 0 && _queue.Bytes + _bytesSending + length > limit)
            return SendStatus.LimitReached;
        return SendStatus.Accepted;
    }

    /// <summary>Counts accepted bytes; true when the caller must start the send loop.</summary>
    private bool AcceptedLocked(int length)
    {
        _acceptedTotal += length;
        if (_sendRunning)
            return false;
        _sendRunning = true;
        return true;
    }

    private Task<bool> AddWaiterLocked()
    {
        var waiter = new SendWaiter(_acceptedTotal);
        (_waiters ??= new Queue<SendWaiter>()).Enqueue(waiter);
        return waiter.Task;
    }

    // Runs inline until the first send that does not complete synchronously; the loop then continues on the
    // completion thread. A loop, never recursion, whatever the hooks call.
    private void RunSendLoop() => _ = SendLoopAsync();

    /// <summary>Raises OnSent, marking the thread so a blocking Send from inside the hook does not wait on its own loop.</summary>
    private void RaiseSent(long sent, long pending)
    {
        var previous = t_sendCallbackOwner;
        t_sendCallbackOwner = this;
        try
        {
            _host.EngineSent(sent, pending);
        }
        catch (Exception exception)
        {
            OnHandlerException(exception);
        }
        finally
        {
            t_sendCallbackOwner = previous;
        }
    }

    private static void CompleteWaiters(SendWaiter[]? done)
    {
        if (done == null)
            return;
        foreach (var waiter in done)
            waiter.Complete(true);
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendLoopAsync()
    {
        while (true)
        {
            bool idle = false;
            lock (_sendLock)
            {
                if (Volatile.Read(ref _closed) != 0)
                {
                    _batch.Clear();
                    _sendRunning = false;
                    idle = true;
                }
                else if (_batch.Count == 0 && !_queue.TakeBatch(_batch))
                {
                    _sendRunning = false;
                    idle = true;
                }
                _bytesSending = _batch.Bytes;
            }
            if (idle)
            {
                if (Volatile.Read(ref _closed) != 0)
                    TryFinish();
                else
                    AfterDrained();
                return;
            }

            var result = await _transport.SendAsync(_batch.Views).ConfigureAwait(false);
            if (!result.Succeeded)
            {
                lock (_sendLock)
                {
                    _batch.Clear();
                    _bytesSending = 0;
                    _sendRunning = false;
                }
                OnTransportError(result.Error);
                FailQueuedSends();
                TryFinish();
                return;
            }

            long pending;
            SendWaiter[]? done;
            lock (_sendLock)
            {
                _batch.Consume(result.Bytes);
                _bytesSending = _batch.Bytes;
                _bytesSent += result.Bytes;
                pending = _queue.Bytes + _batch.Bytes;
                done = TakeCompletedWaitersLocked();
            }
            _host.EngineCounted(0, result.Bytes);
            CompleteWaiters(done);
            if (State == SessionState.Connected)
                RaiseSent(result.Bytes, pending);
        }
    }

    /// <summary>The queue ran dry: finish a pending graceful disconnect, or tell the host the queue is empty.</summary>
    private void AfterDrained()
    {
        var state = State;
        // Inside OnDisconnecting the shutdown waits: Disconnect begins it once the hook has returned and all is out.
        if (state == SessionState.Disconnecting && t_disconnectingHookOwner != this)
            BeginShutdown();
        else if (state == SessionState.Connected)
        {
            var previous = t_sendCallbackOwner;
            t_sendCallbackOwner = this;
            try
            {
                Invoke(static h => h.EngineEmpty());
            }
            finally
            {
                t_sendCallbackOwner = previous;
            }
        }
    }

    private SendWaiter[]? TakeCompletedWaitersLocked()
    {
        if (_waiters == null || _waiters.Count == 0)
            return null;
        var sentTotal = _acceptedTotal - _queue.Bytes - _batch.Bytes;
        var count = 0;
        foreach (var waiter in _waiters)
        {
            if (waiter.Target > sentTotal)
                break;
            count++;
        }
        if (count == 0)
            return null;
        var done = new SendWaiter[count];
        for (var i = 0; i < count; i++)
            done[i] = _waiters.Dequeue();
        return done;
    }

    private void FailQueuedSends()
    {
        SendWaiter[]? failed = null;
        lock (_sendLock)
        {
            _queue.Clear();
            if (_waiters != null && _waiters.Count > 0)
            {
                failed = _waiters.ToArray();
                _waiters.Clear();
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
