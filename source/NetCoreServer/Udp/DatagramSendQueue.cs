using System;
using System.Buffers;
using System.Collections.Generic;
using System.Net;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp;

/// <summary>
/// The datagrams SendAsync accepted and the send loop has not handed to the socket yet: bounded by the send limit,
/// each a pooled copy. Owns its lock; no hook and no socket call runs under it. Any thread enqueues; the one send loop
/// takes (<see cref="Take"/>, <see cref="Sent"/>) and parks here when there is nothing to send. Open, then closing
/// (<see cref="Flush"/>: refuses new datagrams, the loop sends the rest), then closed (<see cref="Close"/>: drops the
/// rest, the loop ends).
/// </summary>
internal sealed class DatagramSendQueue
{
    private readonly object _lock = new();
    private readonly Queue<OutgoingDatagram> _queue = new();
    private readonly LoopSignal _signal = new();
    private readonly DatagramOptions _options;
    private long _bytesPending;
    private long _bytesSending;
    private bool _parked;
    private bool _inFlight;
    private volatile bool _closing;
    private volatile bool _closed;

    // Completed when the loop parks with nothing queued or in flight (a flush waits for it), or when the queue closes.
    private TaskCompletionSource? _drained;

    public DatagramSendQueue(DatagramOptions options) => _options = options;

    /// <summary>What the send loop does next (<see cref="Take"/>).</summary>
    public enum Step
    {
        /// <summary>Send the datagram taken, then call <see cref="Sent"/>.</summary>
        Send,

        /// <summary>Nothing to send: the loop is parked and awaits <see cref="WaitAsync"/>.</summary>
        Park,

        /// <summary>The queue is closed: the loop ends.</summary>
        End,
    }

    /// <summary>Bytes accepted by SendAsync and not yet handed to the socket.</summary>
    public long BytesPending => Interlocked.Read(ref _bytesPending);

    /// <summary>Bytes of the datagram being sent right now.</summary>
    public long BytesSending => Interlocked.Read(ref _bytesSending);

    /// <summary>New datagrams are refused: a flush or a close has begun.</summary>
    public bool IsClosing => _closing;

    /// <summary>Closed: what was queued is dropped and the loop ends.</summary>
    public bool IsClosed => _closed;

    /// <summary>
    /// Copies a datagram into a pooled buffer and queues it. Refused once closing, or when queued plus in-flight bytes
    /// would pass the send limit. When the loop is parked it continues inline on this thread, so an uncontended
    /// datagram is usually on the wire (and OnSent has run) before this returns.
    /// </summary>
    public EnqueueResult Enqueue(EndPoint target, ReadOnlySpan<byte> datagram)
    {
        var copy = ArrayPool<byte>.Shared.Rent(Math.Max(datagram.Length, 1));
        datagram.CopyTo(copy);
        var limit = _options.SendBufferLimit;
        var result = EnqueueResult.Accepted;
        var wake = false;
        lock (_lock)
        {
            if (_closing)
                result = EnqueueResult.Closed;
            else if (limit > 0 && _bytesPending + _bytesSending + datagram.Length > limit)
                result = EnqueueResult.OverLimit;
            else
            {
                _queue.Enqueue(new OutgoingDatagram(target, copy, datagram.Length));
                Interlocked.Add(ref _bytesPending, datagram.Length);
                wake = _parked;
                _parked = false;
            }
        }
        if (result != EnqueueResult.Accepted)
            ArrayPool<byte>.Shared.Return(copy);
        else if (wake)
            _signal.Set();
        return result;
    }

    /// <summary>The send loop takes the next datagram, or parks when there is none (completing a flush waiting for that).</summary>
    /// <param name="next">The datagram to send, when the step is <see cref="Step.Send"/>; the loop returns its buffer.</param>
    public Step Take(out OutgoingDatagram next)
    {
        TaskCompletionSource? drained;
        lock (_lock)
        {
            next = default;
            if (_closed)
                return Step.End;
            if (_queue.TryDequeue(out next))
            {
                Interlocked.Add(ref _bytesPending, -next.Length);
                Interlocked.Exchange(ref _bytesSending, next.Length);
                _inFlight = true;
                return Step.Send;
            }
            // Reset before publishing parked: a waker may Set as soon as it sees it.
            _signal.Reset();
            _parked = true;
            drained = _drained;
            _drained = null;
        }
        drained?.TrySetResult();
        return Step.Park;
    }

    /// <summary>The parked loop waits here; it continues inline on the thread that wakes it.</summary>
    public ValueTask WaitAsync() => _signal.WaitAsync();

    /// <summary>The datagram taken last has been handed to the socket (or failed).</summary>
    public void Sent()
    {
        lock (_lock)
        {
            Interlocked.Exchange(ref _bytesSending, 0);
            _inFlight = false;
        }
    }

    /// <summary>Stops accepting datagrams and waits, at most <paramref name="timeout"/>, until the queued ones are handed to the socket.</summary>
    public void Flush(TimeSpan timeout)
    {
        Task? drained = null;
        lock (_lock)
        {
            _closing = true;
            if (!_closed && (_queue.Count > 0 || _inFlight))
                drained = (_drained ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
        drained?.Wait(timeout);
    }

    /// <summary>
    /// Closes the queue: drops what is queued, ends a waiting flush, and wakes a parked loop (which ends inline on this
    /// thread). The first call decides a race between closes.
    /// </summary>
    /// <returns>False when it was already closed.</returns>
    public bool Close()
    {
        TaskCompletionSource? drained;
        bool wake;
        lock (_lock)
        {
            if (_closed)
                return false;
            _closed = true;
            _closing = true;
            DropQueuedLocked();
            wake = _parked;
            _parked = false;
            drained = _drained;
            _drained = null;
        }
        drained?.TrySetResult();
        if (wake)
            _signal.Set();
        return true;
    }

    /// <summary>The loop has ended (closed, or the socket failed for good): nothing is accepted or kept any more.</summary>
    public void LoopEnded()
    {
        TaskCompletionSource? drained;
        lock (_lock)
        {
            _closing = true;
            DropQueuedLocked();
            drained = _drained;
            _drained = null;
        }
        drained?.TrySetResult();
    }

    private void DropQueuedLocked()
    {
        while (_queue.TryDequeue(out var datagram))
            ArrayPool<byte>.Shared.Return(datagram.Buffer);
        Interlocked.Exchange(ref _bytesPending, 0);
    }
}
