using System;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// A server's multicast stream, written once for all its sessions: <c>Multicast</c> copies each message to the end of
/// this log of pooled <see cref="LogChunk"/> blocks, and every connected session keeps only a position in it. A
/// session's send loop turns the bytes between its position and <see cref="End"/> into send-queue segments over the
/// blocks themselves (one gathered write covers many messages), so a message costs one copy and a few reads per
/// session instead of a locked append and a copy per session. Writers hold <see cref="Lock"/>; readers need only
/// <see cref="End"/> and the block their position lies in.
/// </summary>
internal sealed class MulticastLog
{
    private LogChunk? _current;
    private long _written;
    private long _end;
    private long _liveBlocks;

    /// <summary>
    /// Held by a multicast from its first write to its publication, and by a session joining the log. A
    /// <see cref="System.Threading.Lock"/>, not a monitor: once a join had contended it, every Monitor.Exit went into
    /// the runtime, a quarter of a one-client multicast's time (issue 23).
    /// </summary>
    public Lock Lock { get; } = new();

    /// <summary>Bytes published: every session attached before a message was published reads up to here.</summary>
    public long End => Volatile.Read(ref _end);

    /// <summary>Blocks whose array is still held (by the log, a session's position or a queued segment).</summary>
    public long LiveBlocks => Interlocked.Read(ref _liveBlocks);

    internal void BlockMade() => Interlocked.Increment(ref _liveBlocks);

    internal void BlockFreed() => Interlocked.Decrement(ref _liveBlocks);

    /// <summary>Bytes written, published or not (under <see cref="Lock"/>).</summary>
    public long Written => _written;

    /// <summary>
    /// Under <see cref="Lock"/>: the block a joining session starts reading in, with one reference taken for that
    /// session, and its position (<see cref="Written"/>: it receives what is multicast from now on).
    /// </summary>
    public LogChunk Join(out long position)
    {
        var chunk = _current ??= new LogChunk(this, _written, 1);
        chunk.AddReference();
        position = _written;
        return chunk;
    }

    /// <summary>Under <see cref="Lock"/>: appends <paramref name="data"/> without publishing it.</summary>
    public void Write(ReadOnlySpan<byte> data)
    {
        while (!data.IsEmpty)
        {
            var current = _current;
            if (current == null)
            {
                current = _current = new LogChunk(this, _written, 1);
            }
            else if (_written == current.Start + LogChunk.Size)
            {
                // Two references: the log's (as the block being written) and the full block's link to it.
                var next = new LogChunk(this, _written, 2);
                current.Link(next);
                _current = next;
                current.Release();
                current = next;
            }
            var offset = (int)(_written - current.Start);
            var n = Math.Min(LogChunk.Size - offset, data.Length);
            data.Slice(0, n).CopyTo(current.Array.AsSpan(offset));
            _written += n;
            data = data.Slice(n);
        }
    }

    /// <summary>Under <see cref="Lock"/>: makes everything written readable.</summary>
    public void Publish() => Volatile.Write(ref _end, _written);
}
