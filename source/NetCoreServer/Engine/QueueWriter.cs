using System;

namespace NetCoreServer.Engine;

/// <summary>
/// Where an <see cref="IMessageWriter"/> writes: the end of a connection's send queue under the session lock, or the
/// free room of the receive thread's <see cref="SendCork"/> under its lock.
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

    /// <summary>The next <paramref name="length"/> bytes to write into directly (then <see cref="Advance"/>); false at the queue, which copies.</summary>
    public readonly bool TryGetSpan(int length, out Span<byte> span)
    {
        span = _queue == null ? _room.Slice(Written, length) : default;
        return _queue == null;
    }

    /// <summary>Counts <paramref name="length"/> bytes written into the span of <see cref="TryGetSpan"/>.</summary>
    public void Advance(int length) => Written += length;

    /// <summary>Copies <paramref name="data"/> to the end of the queue (or of the stage).</summary>
    public void Write(scoped ReadOnlySpan<byte> data)
    {
        if (_queue != null)
            _queue.Append(data, _chunkSize);
        else
            data.CopyTo(_room[Written..]);
        Written += data.Length;
    }
}
