using System;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// A session's place in its server's <see cref="MulticastLog"/>: the block it reads in and its position. From
/// Connected until the disconnect begins the session is attached, and every message published meanwhile is its to
/// send; <see cref="MoveTo"/> turns what it has not taken yet into send-queue segments over the log's blocks (no copy).
/// </summary>
/// <remarks>
/// A struct held by the engine: every server session has one, and as a field it costs the connection no object.
/// Written under the session lock (joining also under the log's lock); <see cref="IsAttached"/> and
/// <see cref="Position"/> are read without it by the multicasting thread.
/// </remarks>
internal struct MulticastCursor
{
    private LogChunk? _chunk;
    private long _position;

    public bool IsAttached => Volatile.Read(ref _chunk) != null;

    /// <summary>The log position up to which this session has taken its messages.</summary>
    public long Position => Volatile.Read(ref _position);

    /// <summary>The end of the log: what has been published so far.</summary>
    public readonly long LogEnd => _chunk!.Log.End;

    /// <summary>Joins <paramref name="log"/> at its end; under the log's lock and the session lock.</summary>
    public void Join(MulticastLog log)
    {
        var chunk = log.Join(out var position);
        _position = position;
        Volatile.Write(ref _chunk, chunk);
    }

    /// <summary>Leaves the log: the blocks from here on are no longer this session's to keep.</summary>
    public void Leave()
    {
        var chunk = _chunk!;
        Volatile.Write(ref _chunk, null);
        chunk.Release();
    }

    /// <summary>Appends to <paramref name="queue"/> every published byte before <paramref name="to"/> not taken yet; returns how many.</summary>
    public long MoveTo(long to, SendQueue queue)
    {
        var position = _position;
        if (position >= to)
            return 0;
        var chunk = _chunk!;
        var length = to - position;
        while (position < to)
        {
            var chunkEnd = chunk.Start + LogChunk.Size;
            if (position == chunkEnd)
            {
                chunk = Advance(chunk);
                continue;
            }
            var n = (int)(Math.Min(to, chunkEnd) - position);
            queue.AppendLog(chunk, (int)(position - chunk.Start), n);
            position += n;
        }
        _chunk = chunk;
        Volatile.Write(ref _position, position);
        return length;
    }

    /// <summary>Moves past everything before <paramref name="end"/> without queueing it (a skipped message).</summary>
    public void PassTo(long end)
    {
        var chunk = _chunk!;
        while (end > chunk.Start + LogChunk.Size)
            chunk = Advance(chunk);
        _chunk = chunk;
        Volatile.Write(ref _position, end);
    }

    private static LogChunk Advance(LogChunk chunk)
    {
        var next = chunk.Next!;
        next.AddReference();
        chunk.Release();
        return next;
    }
}
