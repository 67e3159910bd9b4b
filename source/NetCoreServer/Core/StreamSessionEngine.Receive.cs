using System;
using System.Buffers;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

internal sealed partial class StreamSessionEngine
{
    private long _bytesReceived;

    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    /// <summary>Starts the receive loop once; later calls do nothing.</summary>
    public void StartReceiving()
    {
        lock (_sendLock)
        {
            if (_receiveRunning || _receiveStarted || Volatile.Read(ref _closed) != 0)
                return;
            _receiveStarted = true;
            _receiveRunning = true;
        }
        _ = ReceiveLoopAsync();
    }

    private bool _receiveStarted;
    private volatile bool _holdsReceiveBuffer;

    private volatile int _receiveBufferTarget;

    /// <summary>Size of the next receive buffer: grows while reads fill it, shrinks back after the burst.</summary>
    public int ReceiveBufferTarget => _receiveBufferTarget;

    /// <summary>True while the receive loop holds a rented buffer (false while idle: it waits with a zero-byte receive).</summary>
    public bool HoldsReceiveBuffer => _holdsReceiveBuffer;

    /// <summary>
    /// Reads until the connection ends. While idle it holds no buffer: a zero-byte receive waits for data and
    /// only then is a pooled buffer rented. A read that fills the buffer doubles the next one (up to the limit);
    /// short reads let it shrink back. The loop awaits, so synchronous completions iterate instead of recursing.
    /// </summary>
    private async Task ReceiveLoopAsync()
    {
        byte[]? buffer = null;
        var size = _options.EffectiveReceiveBufferSize;
        _receiveBufferTarget = size;
        try
        {
            while (Volatile.Read(ref _closed) == 0)
            {
                if (buffer == null)
                {
                    var ready = await _transport.ReceiveAsync(Memory<byte>.Empty).ConfigureAwait(false);
                    if (!ready.Succeeded)
                    {
                        OnTransportError(ready.Error);
                        return;
                    }
                    buffer = ArrayPool<byte>.Shared.Rent(size);
                    _holdsReceiveBuffer = true;
                }

                var result = await _transport.ReceiveAsync(buffer).ConfigureAwait(false);
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
                if (State == SessionState.Connected)
                {
                    try
                    {
                        _host.EngineReceived(buffer, 0, result.Bytes);
                    }
                    catch (Exception exception)
                    {
                        OnHandlerException(exception);
                        return;
                    }
                }

                if (result.Bytes == buffer.Length)
                {
                    if (buffer.Length < _options.EffectiveReceiveBufferLimit)
                    {
                        size = Math.Min(buffer.Length * 2, _options.EffectiveReceiveBufferLimit);
                        _receiveBufferTarget = size;
                        ArrayPool<byte>.Shared.Return(buffer);
                        buffer = ArrayPool<byte>.Shared.Rent(size);
                    }
                }
                else
                {
                    if (result.Bytes < buffer.Length / 4)
                    {
                        size = Math.Max(_options.EffectiveReceiveBufferSize, size / 2);
                        _receiveBufferTarget = size;
                    }
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = null;
                    _holdsReceiveBuffer = false;
                }
            }
        }
        finally
        {
            if (buffer != null)
                ArrayPool<byte>.Shared.Return(buffer);
            _holdsReceiveBuffer = false;
            _receiveRunning = false;
            if (Volatile.Read(ref _shutdownStarted) != 0 || State == SessionState.Disconnected)
                CloseTransport();
            TryFinish();
        }
    }

    /// <summary>Blocking receive for hosts that do not run the receive loop (NetCoreServer's synchronous client pattern).</summary>
    public IoResult ReceiveBlocking(Span<byte> buffer)
    {
        if (_receiveRunning || State != SessionState.Connected || buffer.IsEmpty)
            return IoResult.Failed(System.Net.Sockets.SocketError.Success);
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
