using System;

namespace NetCoreServer.Engine;

/// <summary>
/// Where an <see cref="IMessageWriter"/> writes: the end of a connection's send queue, under the session lock, or the
/// room of a <see cref="SendStage"/>, which the caller has checked is the message's length.
/// </summary>
internal ref struct QueueWriter
{
    private readonly SendQueue? _queue;
    private readonly int _chunkSize;
    private readonly Span<byte> _room;

    public QueueWriter(SendQueue queue, int chunkSize)
    {
        _queue = queue;
        _chunkSize = chunkSize;
    }

    public QueueWriter(Span<byte> room) => _room = room;

    /// <summary>Bytes written so far.</summary>
    public int Written { get; private set; }

    /// <summary>
    /// The next <paramref name="length"/> bytes of the queue to write into directly (then <see cref="Advance"/>); false
    /// when more than a chunk is asked for, which <see cref="Write"/> spreads over chunks instead.
    /// </summary>
    public readonly bool TryGetSpan(int length, out Span<byte> span)
    {
        span = _queue == null ? _room.Slice(Written, length) : _queue.GetAppendSpan(length, _chunkSize);
        return !span.IsEmpty || length == 0;
    }

    /// <summary>Counts <paramref name="length"/> bytes written into the span of <see cref="TryGetSpan"/>.</summary>
    public void Advance(int length)
    {
        _queue?.Advance(length);
        Written += length;
    }

    /// <summary>Copies <paramref name="data"/> to the end of the queue.</summary>
    public void Write(scoped ReadOnlySpan<byte> data)
    {
        if (_queue == null)
            data.CopyTo(_room.Slice(Written));
        else
            _queue.Append(data, _chunkSize);
        Written += data.Length;
    }
}
