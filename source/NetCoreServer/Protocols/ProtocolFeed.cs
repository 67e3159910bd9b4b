using System;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols;

/// <summary>
/// The received-bytes feed of a connection whose bytes reach its protocol through a user's <c>OnReceived</c> override
/// (its <c>base.OnReceived</c>) instead of straight from the engine: the engine then hands each chunk once, so the
/// unparsed tail of a message is kept here until the next chunk completes it. Made on first need; its buffer is pooled
/// and returned as soon as it is empty. Not thread-safe: OnReceived calls never overlap.
/// </summary>
internal sealed class ProtocolFeed
{
    private byte[]? _buffer;
    private int _length;

    /// <summary>Bytes kept.</summary>
    public int Length => _length;

    /// <summary>
    /// Hands <paramref name="connection"/>'s protocol what was kept, followed by <paramref name="chunk"/> (empty after a
    /// hold ended), until it consumes nothing more, and keeps the rest. False when the rest reached
    /// <paramref name="limit"/> (a message that cannot complete): then nothing is kept and the caller closes the connection.
    /// </summary>
    public bool Feed(IProtocolConnection connection, ReadOnlySpan<byte> chunk, int limit)
    {
        var data = _length == 0 ? chunk : Append(chunk);
        var consumed = 0;
        while (consumed < data.Length && connection.IsConnected)
        {
            // Read each time: an upgrade replaces the protocol, and the bytes after it go to the new one.
            var protocol = connection.Protocol;
            if (protocol == null)
                break;
            var taken = protocol.Received(data[consumed..]);
            if (taken <= 0)
                break;
            consumed += Math.Min(taken, data.Length - consumed);
        }
        if (!connection.IsConnected)
        {
            Clear();
            return true;
        }
        Keep(data, consumed);
        if (_length < limit)
            return true;
        Clear();
        return false;
    }

    /// <summary>The kept bytes followed by <paramref name="chunk"/>; valid until the next call.</summary>
    private ReadOnlySpan<byte> Append(ReadOnlySpan<byte> chunk)
    {
        var needed = _length + chunk.Length;
        if (_buffer == null || _buffer.Length < needed)
        {
            var larger = EngineBuffers.Rent(Math.Max(needed, 4096));
            if (_buffer != null)
            {
                _buffer.AsSpan(0, _length).CopyTo(larger);
                EngineBuffers.Return(_buffer);
            }
            _buffer = larger;
        }
        chunk.CopyTo(_buffer.AsSpan(_length));
        _length = needed;
        return _buffer.AsSpan(0, _length);
    }

    /// <summary>Keeps what follows the consumed bytes of what <see cref="Append"/> returned, or of a chunk parsed in place.</summary>
    /// <param name="data">The span that was parsed: this feed's own bytes, or a chunk when nothing was kept.</param>
    /// <param name="consumed">How much of it the protocol consumed.</param>
    private void Keep(ReadOnlySpan<byte> data, int consumed)
    {
        var rest = data.Length - consumed;
        if (rest <= 0)
        {
            Clear();
            return;
        }
        if (_length > 0)
        {
            // data is this feed's buffer: move the tail to the front.
            _buffer.AsSpan(consumed, rest).CopyTo(_buffer);
            _length = rest;
            return;
        }
        Append(data[consumed..]);
    }

    /// <summary>Drops what is kept and gives the buffer back.</summary>
    public void Clear()
    {
        var buffer = _buffer;
        _buffer = null;
        _length = 0;
        if (buffer != null)
            EngineBuffers.Return(buffer);
    }
}
