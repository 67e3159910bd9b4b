using System;
using System.Buffers;
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
        _ = ReceiveLoopAsync();
    }

    /// <summary>Reads until the connection ends. The loop awaits, so synchronous completions iterate instead of recursing.</summary>
    private async Task ReceiveLoopAsync()
    {
        byte[]? buffer = null;
        var size = _options.EffectiveReceiveBufferSize;
        try
        {
            while (!_closed)
            {
                if (buffer == null)
                {
                    var ready = await ReceiveAsync(Memory<byte>.Empty).ConfigureAwait(false);
                    if (!ready.Succeeded)
                    {
                        OnTransportError(ready.Error);
                        return;
                    }
                    buffer = ArrayPool<byte>.Shared.Rent(size);
                }

                var result = await ReceiveAsync(buffer).ConfigureAwait(false);
                if (!result.Succeeded)
                {
                    OnTransportError(result.Error);
                    return;
                }
                if (result.Bytes == 0)
                {
                    // End of stream: deliver what we still owe the peer, then close.
                    Disconnect(DisconnectReason.PeerClosed);
                    return;
                }

                Interlocked.Add(ref _bytesReceived, result.Bytes);
                _host.EngineCounted(result.Bytes, 0);
                // After a local Disconnect, data is read and dropped until the peer's end of stream.
                if (State == SessionState.Connected && !RunHook(HookKind.Other, (buffer, result.Bytes), static (e, a) => e._host.EngineReceived(a.buffer, 0, a.Bytes)))
                    return;

                if (result.Bytes == buffer.Length)
                {
                    if (buffer.Length < _options.EffectiveReceiveBufferLimit)
                    {
                        size = Math.Min(buffer.Length * 2, _options.EffectiveReceiveBufferLimit);
                        ArrayPool<byte>.Shared.Return(buffer);
                        buffer = ArrayPool<byte>.Shared.Rent(size);
                    }
                }
                else
                {
                    if (result.Bytes < buffer.Length / 4)
                        size = Math.Max(_options.EffectiveReceiveBufferSize, size / 2);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = null;
                }
            }
        }
        finally
        {
            if (buffer != null)
                ArrayPool<byte>.Shared.Return(buffer);
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

    /// <summary>One transport receive; while it is pending the loop counts as parked (see <see cref="Park"/>).</summary>
    private ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer)
    {
        var receive = _transport.ReceiveAsync(buffer);
        return receive.IsCompleted ? receive : ParkedAsync(receive, Loops.Receive);
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
