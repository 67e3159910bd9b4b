using System;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Bytes read by a client's blocking calls (the synchronous Connect reading the 101, ReceiveText/ReceiveBinary) when no
/// receive loop runs: what the protocol in the slot has not consumed yet waits here, as the engine's own buffer does
/// for the loop, and is handed over first when the loop starts. Grows up to a limit; not thread-safe (one blocking
/// caller at a time, as NetCoreServer's).
/// </summary>
internal sealed class WsBlockingInput
{
    private readonly int _limit;
    private byte[] _buffer = new byte[8192];
    private int _count;

    /// <param name="limit">The most bytes kept unconsumed (a partial HTTP head or frame header is never that long).</param>
    public WsBlockingInput(int limit) => _limit = Math.Max(limit, _buffer.Length);

    /// <summary>Reads once (blocking) and hands everything kept to the protocol; false when the read failed or nothing fits.</summary>
    public bool Pump(StreamSessionEngine engine, Func<IStreamProtocol?> protocol, Func<bool> stop)
    {
        if (_count == _buffer.Length)
        {
            if (_buffer.Length >= _limit)
                return false;
            Array.Resize(ref _buffer, Math.Min(_limit, _buffer.Length * 2));
        }
        var result = engine.ReceiveBlocking(_buffer.AsSpan(_count));
        if (!result.Succeeded || result.Bytes <= 0)
            return false;
        _count += result.Bytes;
        Drain(protocol, stop);
        return true;
    }

    /// <summary>Hands what is kept to the protocol in the slot, again while it consumes (an upgrade changes the slot), until <paramref name="stop"/>.</summary>
    public void Drain(Func<IStreamProtocol?> protocol, Func<bool> stop)
    {
        while (_count > 0 && !stop())
        {
            var current = protocol();
            if (current == null)
                return;
            var consumed = current.Received(_buffer.AsSpan(0, _count));
            if (consumed <= 0)
                return;
            _count -= consumed;
            _buffer.AsSpan(consumed, _count).CopyTo(_buffer);
        }
    }
}
