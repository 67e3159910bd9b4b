using System.Threading;
using NetCoreServer.Buffers;

namespace NetCoreServer.Engine;

/// <summary>
/// One pooled block of a <see cref="MulticastLog"/>, with two reference counts. Positions (the log while the block is
/// the one being written, each session whose unsent position lies in it, and the block before it through
/// <see cref="Next"/>) keep the chain from here on alive; readers (queued send segments over its bytes) keep only its
/// array. So a stuck session's queue pins the blocks it holds bytes of and nothing written after them; the array
/// goes back to the pool when both counts reach zero.
/// </summary>
internal sealed class LogChunk
{
    /// <summary>Bytes per block: a power of two, and no larger than the ordinary buffer pool's largest class.</summary>
    public const int Size = 64 * 1024;

    private byte[]? _array;
    private LogChunk? _next;
    private int _positions;
    // Segments, plus one for as long as any position holds the block.
    private int _readers = 1;

    public LogChunk(MulticastLog log, long start, int positions)
    {
        Log = log;
        _array = EngineBuffers.Rent(Size);
        Start = start;
        _positions = positions;
        log.BlockMade();
    }

    /// <summary>The log this block belongs to (a session reaches its log through the block it reads in, and holds no field for it).</summary>
    public MulticastLog Log { get; }

    /// <summary>Log position of the block's first byte.</summary>
    public long Start { get; }

    public byte[] Array => _array!;

    /// <summary>The following block; set (holding a position on it) before any byte past this block is published.</summary>
    public LogChunk? Next => Volatile.Read(ref _next);

    /// <summary>Links <paramref name="next"/>, whose position count already includes this block's link to it.</summary>
    public void Link(LogChunk next) => Volatile.Write(ref _next, next);

    /// <summary>A position moves into this block (a session joins or advances to it).</summary>
    public void AddReference() => Interlocked.Increment(ref _positions);

    /// <summary>A queued segment over this block's bytes; released with <see cref="ReleaseReader"/> once sent.</summary>
    public void AddReader() => Interlocked.Increment(ref _readers);

    public void ReleaseReader()
    {
        if (Interlocked.Decrement(ref _readers) == 0)
            Free();
    }

    /// <summary>Drops one position; a block no position holds drops its link to the next one, iteratively.</summary>
    public void Release()
    {
        var chunk = this;
        while (chunk != null && Interlocked.Decrement(ref chunk._positions) == 0)
        {
            var next = chunk._next;
            chunk._next = null;
            chunk.ReleaseReader();
            chunk = next;
        }
    }

    private void Free()
    {
        var array = Interlocked.Exchange(ref _array, null);
        if (array == null)
            return;
        EngineBuffers.Return(array);
        Log.BlockFreed();
    }
}
