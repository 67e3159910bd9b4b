using System;
using System.Buffers;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Udp;

internal sealed partial class DatagramEngine
{
    private readonly object _sendLock = new();
    private readonly Queue<OutgoingDatagram> _sendQueue = new();
    private readonly NetCoreServer.Transports.AwaitableSocketArgs _sendArgs = new();
    // The send loop's serialized targets (made in the constructor; the send loop alone uses them).
    private readonly TargetAddresses _targets;
    private readonly LoopSignal _sendSignal = new();
    private long _bytesPending;
    private long _bytesSending;
    private bool _sendParked;
    private bool _sendInFlight;
    private volatile bool _closing;
    private TaskCompletionSource? _drained;

    /// <summary>Bytes accepted by SendAsync and not yet handed to the socket.</summary>
    public long BytesPending => Interlocked.Read(ref _bytesPending);

    /// <summary>Bytes of the datagram being sent right now.</summary>
    public long BytesSending => Interlocked.Read(ref _bytesSending);

    /// <summary>
    /// Copies a datagram into a pooled buffer and queues it. Refused once closing, or when queued plus in-flight
    /// bytes would pass the send limit. When the send loop is parked it continues inline on this thread, so an
    /// uncontended datagram is usually on the wire (and OnSent has run) before this returns.
    /// </summary>
    public EnqueueResult Enqueue(EndPoint target, ReadOnlySpan<byte> datagram)
    {
        var copy = ArrayPool<byte>.Shared.Rent(Math.Max(datagram.Length, 1));
        datagram.CopyTo(copy);
        var limit = _options.SendBufferLimit;
        var result = EnqueueResult.Accepted;
        var wake = false;
        lock (_sendLock)
        {
            if (_closing)
                result = EnqueueResult.Closed;
            else if (limit > 0 && _bytesPending + _bytesSending + datagram.Length > limit)
                result = EnqueueResult.OverLimit;
            else
            {
                _sendQueue.Enqueue(new OutgoingDatagram(target, copy, datagram.Length));
                Interlocked.Add(ref _bytesPending, datagram.Length);
                wake = _sendParked;
                _sendParked = false;
            }
        }
        if (result != EnqueueResult.Accepted)
            ArrayPool<byte>.Shared.Return(copy);
        else if (wake)
            _sendSignal.Set();
        return result;
    }

    /// <summary>Blocking send of one datagram: the bytes sent, or -1 when closed or failed (errors worth it are reported).</summary>
    public int SendBlocking(EndPoint target, ReadOnlySpan<byte> datagram)
    {
        if (_closing)
            return -1;
        var result = SendToBlocking(target, datagram);
        if (!result.Succeeded)
            return BlockingFailed(result.Error);
        Interlocked.Increment(ref _datagramsSent);
        Interlocked.Add(ref _bytesSent, result.Bytes);
        return result.Bytes;
    }

    /// <summary>A blocking send or receive failed: reports the error when worth it (not after close) and returns -1.</summary>
    private int BlockingFailed(SocketError error)
    {
        if (!_closed && DatagramErrors.IsReportable(error))
            ReportInline(error);
        return -1;
    }

    /// <summary>Raises OnError for a synchronous call; exceptions from the hook reach the caller.</summary>
    public void ReportInline(SocketError error)
    {
        using var scope = Hooks.Enter(_host);
        _host.Error(error);
    }

    /// <summary>
    /// The one send loop of this socket: sends queued datagrams one by one with SendTo on a reusable
    /// SocketAsyncEventArgs, and parks when the queue is empty. Synchronous completions iterate, never recurse.
    /// </summary>
    private async Task SendLoopAsync()
    {
        try
        {
            while (true)
            {
                OutgoingDatagram next;
                TaskCompletionSource? drained = null;
                var park = false;
                lock (_sendLock)
                {
                    if (_closed)
                        return;
                    if (_sendQueue.TryDequeue(out next))
                    {
                        Interlocked.Add(ref _bytesPending, -next.Length);
                        Interlocked.Exchange(ref _bytesSending, next.Length);
                        _sendInFlight = true;
                    }
                    else
                    {
                        // Reset before publishing Parked: a waker may Set as soon as it sees it.
                        _sendSignal.Reset();
                        _sendParked = true;
                        park = true;
                        drained = _drained;
                        _drained = null;
                    }
                }
                if (park)
                {
                    drained?.TrySetResult();
                    await _sendSignal.WaitAsync().ConfigureAwait(false);
                    continue;
                }

                // With a receive thread the socket stays out of the runtime's engine: the send blocks (only while the
                // kernel's send buffer is full). Otherwise a target already serialized goes out without serializing it
                // again; any other (a host name, another address family) through the args, which resolve it.
                var datagram = next.Buffer.AsMemory(0, next.Length);
                var address = _targets.AddressOf(next.Target);
                IoResult result;
                if (_threaded)
                    result = SendToBlocking(next.Target, datagram.Span, address);
                else if (address == null)
                    result = await _sendArgs.SendToAsync(Socket, next.Target, datagram).ConfigureAwait(false);
                else
                {
                    try
                    {
                        result = new IoResult(await Socket.SendToAsync(datagram, SocketFlags.None, address).ConfigureAwait(false), SocketError.Success);
                    }
                    catch (Exception exception) when (SocketErrors.FromException(exception, out var error))
                    {
                        result = IoResult.Failed(error);
                    }
                }
                ArrayPool<byte>.Shared.Return(next.Buffer);
                lock (_sendLock)
                {
                    Interlocked.Exchange(ref _bytesSending, 0);
                    _sendInFlight = false;
                }
                if (result.Succeeded)
                {
                    Interlocked.Increment(ref _datagramsSent);
                    Interlocked.Add(ref _bytesSent, result.Bytes);
                    RaiseSent(next.Target, result.Bytes);
                }
                else if (_closed || DatagramErrors.IsTeardown(result.Error))
                    return;
                else if (DatagramErrors.IsReportable(result.Error))
                    RaiseError(result.Error);
            }
        }
        finally
        {
            _sendArgs.ClearBuffers();
            _sendArgs.Dispose();
            TaskCompletionSource? drained;
            lock (_sendLock)
            {
                _closing = true;
                DrainQueueLocked();
                drained = _drained;
                _drained = null;
            }
            drained?.TrySetResult();
        }
    }

    /// <summary>Stops accepting datagrams and waits (bounded) until the queued ones are handed to the socket.</summary>
    private void FlushQueue()
    {
        Task? drained = null;
        lock (_sendLock)
        {
            _closing = true;
            if (!_closed && (_sendQueue.Count > 0 || _sendInFlight))
                drained = (_drained ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
        drained?.Wait(FlushTimeout);
    }

    /// <summary>Marks the engine closed and drops what is still queued.</summary>
    /// <returns>False when it was already closed.</returns>
    private bool CloseQueue(out bool wakeSender)
    {
        TaskCompletionSource? drained;
        lock (_sendLock)
        {
            wakeSender = false;
            if (_closed)
                return false;
            _closed = true;
            _closing = true;
            DrainQueueLocked();
            wakeSender = _sendParked;
            _sendParked = false;
            drained = _drained;
            _drained = null;
        }
        drained?.TrySetResult();
        return true;
    }

    private void DrainQueueLocked()
    {
        while (_sendQueue.TryDequeue(out var datagram))
            ArrayPool<byte>.Shared.Return(datagram.Buffer);
        Interlocked.Exchange(ref _bytesPending, 0);
    }
}
