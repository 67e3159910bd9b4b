using System;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// The receiving side: one loop per connection, started after the connect hooks (and the TLS handshake). While idle
/// it holds no buffer: a zero-byte receive waits for data and only then is a pooled buffer rented. A read that fills
/// the buffer doubles the next one (up to the limit); short reads let it shrink back.
/// </summary>
internal sealed partial class StreamSessionEngine : IReceiveCompletion
{
    private long _bytesReceived;

    // The receive loop's state (touched by the loop only): the rented buffer, if any; the unconsumed bytes at its front
    // (while a read is delivered, what the host consumed of it: see DeliverCorked); the size of the next buffer to rent.
    private byte[]? _receiveBuffer;
    private int _receiveFilled;
    private int _receiveSize;

    // Set when the protocol held the loop (HoldReceiving): what it left is handed to it again before the next read.
    private bool _redeliver;

    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    /// <summary>Starts the receive loop once (when the transport is ready: after the TLS handshake); later calls do nothing.</summary>
    public void StartReceiving()
    {
        lock (this)
        {
            if (ReceiveRequested || Closed || !Ready)
                return;
            ReceiveRequested = true;
            ReceiveRunning = true;
        }
        StartIdleTimer();
        _receiveSize = Options.EffectiveReceiveBufferSize;
        ReceiveLoop(resumed: false, default);
    }

    /// <summary>
    /// Reads until the connection ends or a receive is pending; the completion of that receive (or the end of a pause)
    /// runs it again. The host says how much of what it was handed it consumed (a protocol parser may leave a partial
    /// message); the rest stays at the front of the buffer and is handed again with the next read, so no parser keeps
    /// its own copy. Synchronous completions iterate instead of recursing. The loop is a callback rather than an async
    /// method so that an idle connection holds no state machine: its whole state is the three fields above.
    /// </summary>
    /// <param name="resumed">Called with the <paramref name="result"/> of a receive that completed later.</param>
    /// <param name="result">That receive's result.</param>
    private void ReceiveLoop(bool resumed, IoResult result)
    {
        var ended = true;
        try
        {
            if (resumed && !HandleReceive(result))
                return;
            while (!Closed)
            {
                var paused = PauseReading();
                if (paused != null)
                {
                    // Unwritable: read nothing more until the peer has taken what it was sent. An empty buffer goes
                    // back to the pool meanwhile; a partial message stays.
                    if (_receiveBuffer != null && _receiveFilled == 0)
                    {
                        EngineBuffers.Return(_receiveBuffer);
                        _receiveBuffer = null;
                    }
                    ended = false;
                    _ = ResumeAfterPauseAsync(paused);
                    return;
                }
                if (_redeliver)
                {
                    _redeliver = false;
                    if (!(_receiveFilled > 0 ? RedeliverKept() : ResumeHost()))
                        return;
                    continue;
                }
                // Without a buffer, a zero-byte receive waits for data; a buffer is rented only once some is there.
                var buffer = _receiveBuffer;
                if (!_transport.TryReceive(buffer == null ? Memory<byte>.Empty : buffer.AsMemory(_receiveFilled), this, out result))
                {
                    // Pending: parked while it waits (see Park). Its completion may already run the loop on another
                    // thread, so nothing here touches the loop's state any more.
                    ended = false;
                    Park(Loops.Receive);
                    return;
                }
                if (!HandleReceive(result))
                    return;
            }
        }
        finally
        {
            if (ended)
                EndReceive();
        }
    }

    void IReceiveCompletion.ReceiveCompleted(IoResult result)
    {
        Unpark(Loops.Receive);
        try
        {
            ReceiveLoop(resumed: true, result);
        }
        catch (Exception)
        {
            // A fault in the engine's own code (hooks cannot throw into it): the loop has ended; so does the
            // connection, instead of the exception reaching the socket's completion thread.
            Abort(DisconnectReason.Error);
        }
    }

    /// <summary>Waits while paused, counted as parked (a close need not wait for the pool to resume this loop), then reads again.</summary>
    private async Task ResumeAfterPauseAsync(Task writable)
    {
        Park(Loops.Receive);
        try
        {
            await writable.ConfigureAwait(false);
        }
        finally
        {
            Unpark(Loops.Receive);
        }
        ReceiveLoop(resumed: false, default);
    }

    /// <summary>Handles what one receive brought; false when the loop ends.</summary>
    private bool HandleReceive(IoResult result)
    {
        var buffer = _receiveBuffer;
        if (result.Error == SocketError.WouldBlock)
        {
            // A transport that reads at once (the event loops) found nothing after all: idle again without a buffer,
            // unless it holds part of a message.
            if (buffer != null && _receiveFilled == 0)
            {
                EngineBuffers.Return(buffer);
                _receiveBuffer = null;
            }
            return true;
        }
        if (buffer == null && result.Succeeded)
        {
            // The zero-byte wait saw data: now rent the buffer to read it into.
            _receiveBuffer = EngineBuffers.Rent(_receiveSize);
            return true;
        }
        if (!TakeReceived(result))
            return false;
        // Without a buffer only a failed receive gets here, and TakeReceived refused it.
        System.Diagnostics.Debug.Assert(buffer != null);
        Received();
        var read = result.Bytes;
        var kept = _receiveFilled;
        if (!DeliverAndKeep(buffer, kept + read))
            return false;
        if (_receiveFilled > 0)
        {
            // A partial message stays at the front (of a grown buffer if it filled this one) and waits for the rest.
        }
        else if (read == buffer.Length - kept)
        {
            // The read filled the buffer: the peer sends faster than one buffer per read.
            if (buffer.Length < Options.EffectiveReceiveBufferLimit)
                _receiveBuffer = Grow(buffer, 0);
        }
        else
        {
            // A short read and nothing kept: go idle without a buffer, shrinking back after a burst.
            if (read < buffer.Length / 4)
                _receiveSize = Math.Max(Options.EffectiveReceiveBufferSize, _receiveSize / 2);
            EngineBuffers.Return(buffer);
            _receiveBuffer = null;
        }
        return true;
    }

    /// <summary>After a hold: hands the protocol what it left (pipelined requests it did not read yet); false when the loop ends.</summary>
    private bool RedeliverKept()
    {
        // Kept bytes live in the buffer, which stays rented while it holds them.
        var buffer = _receiveBuffer!;
        if (!DeliverAndKeep(buffer, _receiveFilled))
            return false;
        if (_receiveFilled == 0)
        {
            EngineBuffers.Return(buffer);
            _receiveBuffer = null;
        }
        return true;
    }

    /// <summary>
    /// Delivers the buffer's first <paramref name="total"/> bytes and keeps what the host left at its front, growing
    /// the buffer when one message fills it; false when the loop ends (a hook threw, or a message passed the limit).
    /// </summary>
    private bool DeliverAndKeep(byte[] buffer, int total)
    {
        // After a local Disconnect, data is read and dropped until the peer's end of stream.
        var filled = State == SessionState.Connected ? Deliver(buffer, total) : 0;
        if (filled < 0)
            return false;
        _receiveFilled = filled;
        if (filled == buffer.Length)
        {
            if (buffer.Length >= Options.EffectiveReceiveBufferLimit)
            {
                // Longer than the limit, and its protocol did not refuse it itself.
                Abort(DisconnectReason.ProtocolError);
                return false;
            }
            _receiveBuffer = Grow(buffer, filled);
        }
        return true;
    }

    /// <summary>After a hold with nothing kept here: the host hands over what it kept itself; false when the loop ends.</summary>
    private bool ResumeHost()
    {
        if (State != SessionState.Connected)
            return true;
        var previous = Cork();
        try
        {
            return RunHook(HookKind.Other, 0, static (e, _) => e._host.EngineResumed());
        }
        finally
        {
            Uncork(previous);
        }
    }

    /// <summary>The loop has ended: gives its buffer back, and closes or finishes what waited for it.</summary>
    private void EndReceive()
    {
        var buffer = _receiveBuffer;
        _receiveBuffer = null;
        _receiveFilled = 0;
        if (buffer != null)
            EngineBuffers.Return(buffer);
        bool close;
        lock (this)
        {
            ReceiveRunning = false;
            close = ShutdownDone;
        }
        if (close)
            CloseTransport();
        TryFinish();
    }

    /// <summary>Doubles the buffer (up to the limit), keeping its first <paramref name="keep"/> bytes.</summary>
    private byte[] Grow(byte[] buffer, int keep)
    {
        _receiveSize = Math.Min(buffer.Length * 2, Options.EffectiveReceiveBufferLimit);
        var larger = EngineBuffers.Rent(_receiveSize);
        buffer.AsSpan(0, keep).CopyTo(larger);
        EngineBuffers.Return(buffer);
        return larger;
    }

    /// <summary>
    /// Hands the host the <paramref name="total"/> bytes at the front of the buffer until it consumes nothing more (or
    /// everything); moves what is left to the front. Returns the bytes kept, or -1 when a hook threw. What the hooks
    /// send meanwhile goes out together afterwards (see <see cref="Cork"/>).
    /// </summary>
    private int Deliver(byte[] buffer, int total)
    {
        var previous = Cork();
        try
        {
            return DeliverCorked(buffer, total);
        }
        finally
        {
            Uncork(previous);
        }
    }

    private int DeliverCorked(byte[] buffer, int total)
    {
        var offset = 0;
        while (offset < total && State == SessionState.Connected)
        {
            if (!RunHook(HookKind.Other, (buffer, offset, count: total - offset), static (e, a) => e._receiveFilled = e._host.EngineReceived(a.buffer, a.offset, a.count)))
                return -1;
            // The hook hands its count back through _receiveFilled, free while a read is delivered (the caller
            // captured it and sets it again after): one int less per connection than a field of its own.
            var consumed = _receiveFilled;
            if (consumed <= 0)
                break;
            offset += Math.Min(consumed, total - offset);
        }
        if (offset >= total || State != SessionState.Connected)
            return 0;
        if (offset > 0)
            System.Buffer.BlockCopy(buffer, offset, buffer, 0, total - offset);
        return total - offset;
    }

    /// <summary>Blocking receive for hosts that do not run the receive loop (NetCoreServer's synchronous client pattern).</summary>
    public IoResult ReceiveBlocking(Span<byte> buffer)
    {
        lock (this)
        {
            if (ReceiveRunning || !Ready || State != SessionState.Connected || buffer.IsEmpty)
                return IoResult.Failed(SocketError.Success);
        }
        var result = _transport.Receive(buffer);
        TakeReceived(result);
        return result;
    }

    /// <summary>
    /// What every data receive (the loop's and the blocking one) does with its result: a failure ends the connection as
    /// an error, an end of stream disconnects (what we still owe the peer is delivered first; a partial message is
    /// dropped), and received bytes are counted. True when there are bytes to hand on.
    /// </summary>
    private bool TakeReceived(IoResult result)
    {
        if (!result.Succeeded)
        {
            OnTransportError(result.Error);
            return false;
        }
        if (result.Bytes == 0)
        {
            Disconnect(DisconnectReason.PeerClosed);
            return false;
        }
        Interlocked.Add(ref _bytesReceived, result.Bytes);
        _host.EngineCounted(result.Bytes, 0);
        return true;
    }
}
