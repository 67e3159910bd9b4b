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
internal sealed partial class StreamSessionEngine
{
    private bool _receiveRequested;
    private bool _receiveRunning;
    private long _bytesReceived;

    // What the host consumed in the delivery under way (written and read on the receive loop only).
    private int _consumed;

    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    /// <summary>Starts the receive loop once (when the transport is ready: after the TLS handshake); later calls do nothing.</summary>
    public void StartReceiving()
    {
        lock (_lock)
        {
            if (_receiveRequested || _closed || !_ready)
                return;
            _receiveRequested = true;
            _receiveRunning = true;
        }
        StartIdleTimer();
        _ = ReceiveLoopAsync();
    }

    /// <summary>
    /// Reads until the connection ends. The host says how much of what it was handed it consumed (a protocol parser
    /// may leave a partial message); the rest stays at the front of the buffer and is handed again with the next read,
    /// so no parser keeps its own copy. The loop awaits, so synchronous completions iterate instead of recursing.
    /// </summary>
    private async Task ReceiveLoopAsync()
    {
        byte[]? buffer = null;
        var filled = 0;
        var size = _options.EffectiveReceiveBufferSize;
        try
        {
            while (!_closed)
            {
                var paused = PauseReading();
                if (paused != null)
                {
                    // Unwritable: read nothing more until the peer has taken what it was sent. An empty buffer goes
                    // back to the pool meanwhile; a partial message stays.
                    if (buffer != null && filled == 0)
                    {
                        EngineBuffers.Return(buffer);
                        buffer = null;
                    }
                    await PausedAsync(paused).ConfigureAwait(false);
                    continue;
                }
                // Without a buffer, a zero-byte receive waits for data; a buffer is rented only once some is there.
                // A receive that does not complete at once parks the loop (see Park) for as long as it waits; this is
                // done here rather than in a helper so that an idle connection holds no state machine besides this one.
                var receive = _transport.ReceiveAsync(buffer == null ? Memory<byte>.Empty : buffer.AsMemory(filled));
                var parked = !receive.IsCompleted;
                if (parked)
                    Park(Loops.Receive);
                IoResult result;
                try
                {
                    result = await receive.ConfigureAwait(false);
                }
                finally
                {
                    if (parked)
                        Unpark(Loops.Receive);
                }
                if (!result.Succeeded)
                {
                    OnTransportError(result.Error);
                    return;
                }
                if (buffer == null)
                {
                    buffer = EngineBuffers.Rent(size);
                    continue;
                }
                if (result.Bytes == 0)
                {
                    // End of stream: deliver what we still owe the peer, then close. A partial message is dropped.
                    Disconnect(DisconnectReason.PeerClosed);
                    return;
                }

                Interlocked.Add(ref _bytesReceived, result.Bytes);
                _host.EngineCounted(result.Bytes, 0);
                Received();
                var read = result.Bytes;
                var kept = filled;
                // After a local Disconnect, data is read and dropped until the peer's end of stream.
                filled = State == SessionState.Connected ? Deliver(buffer, kept + read) : 0;
                if (filled < 0)
                    return;

                if (filled == buffer.Length)
                {
                    // One message fills the whole buffer: grow it, up to the receive limit.
                    if (buffer.Length >= _options.EffectiveReceiveBufferLimit)
                    {
                        // Longer than the limit, and its protocol did not refuse it itself.
                        Abort(DisconnectReason.ProtocolError);
                        return;
                    }
                    buffer = Grow(buffer, filled, ref size);
                }
                else if (filled > 0)
                {
                    // A partial message stays at the front and waits for the rest.
                }
                else if (read == buffer.Length - kept)
                {
                    // The read filled the buffer: the peer sends faster than one buffer per read.
                    if (buffer.Length < _options.EffectiveReceiveBufferLimit)
                        buffer = Grow(buffer, 0, ref size);
                }
                else
                {
                    // A short read and nothing kept: go idle without a buffer, shrinking back after a burst.
                    if (read < buffer.Length / 4)
                        size = Math.Max(_options.EffectiveReceiveBufferSize, size / 2);
                    EngineBuffers.Return(buffer);
                    buffer = null;
                }
            }
        }
        finally
        {
            if (buffer != null)
                EngineBuffers.Return(buffer);
            bool close;
            lock (_lock)
            {
                _receiveRunning = false;
                close = _shutdownDone;
            }
            if (close)
                CloseTransport();
            TryFinish();
        }
    }

    /// <summary>Doubles the buffer (up to the limit), keeping its first <paramref name="keep"/> bytes.</summary>
    private byte[] Grow(byte[] buffer, int keep, ref int size)
    {
        size = Math.Min(buffer.Length * 2, _options.EffectiveReceiveBufferLimit);
        var larger = EngineBuffers.Rent(size);
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
        Cork();
        try
        {
            return DeliverCorked(buffer, total);
        }
        finally
        {
            Uncork();
        }
    }

    private int DeliverCorked(byte[] buffer, int total)
    {
        var offset = 0;
        while (offset < total && State == SessionState.Connected)
        {
            if (!RunHook(HookKind.Other, (buffer, offset, count: total - offset), static (e, a) => e._consumed = e._host.EngineReceived(a.buffer, a.offset, a.count)))
                return -1;
            var consumed = _consumed;
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

    /// <summary>Blocking receive for hosts that do not run the receive loop (NetCoreServer's synchronous client pattern).</summary>
    public IoResult ReceiveBlocking(Span<byte> buffer)
    {
        lock (_lock)
        {
            if (_receiveRunning || !_ready || _state != (int)SessionState.Connected || buffer.IsEmpty)
                return IoResult.Failed(SocketError.Success);
        }
        var result = _transport.Receive(buffer);
        if (!result.Succeeded)
        {
            OnTransportError(result.Error);
            return result;
        }
        if (result.Bytes == 0)
        {
            Disconnect(DisconnectReason.PeerClosed);
            return result;
        }
        Interlocked.Add(ref _bytesReceived, result.Bytes);
        _host.EngineCounted(result.Bytes, 0);
        return result;
    }
}
