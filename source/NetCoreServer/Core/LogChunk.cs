using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// One pooled block of a <see cref="MulticastLog"/>, reference-counted. References are held by the log while the
/// block is the one being written, by each session whose unsent position lies in it, by each queued send segment
/// over its bytes, and by the block before it (through <see cref="Next"/>), so a block stays alive exactly while
/// some session may still read it or anything after it; the last release returns the array to the pool.
/// </summary>
internal sealed class LogChunk
{
    /// <summary>Bytes per block: a power of two, and no larger than the ordinary buffer pool's largest class.</summary>
    public const int Size = 64 * 1024;

    private byte[]? _array;
    private LogChunk? _next;
    private int _references;

    public LogChunk(MulticastLog log, long start, int references)
    {
        Log = log;
        _array = EngineBuffers.Rent(Size);
        Start = start;
        _references = references;
    }

    /// <summary>The log this block belongs to (a session reaches its log through the block it reads in, and holds no field for it).</summary>
    public MulticastLog Log { get; }

    /// <summary>Log position of the block's first byte.</summary>
    public long Start { get; }

    public byte[] Array => _array!;

    /// <summary>The following block; set (holding a reference) before any byte past this block is published.</summary>
    public LogChunk? Next => Volatile.Read(ref _next);

    /// <summary>Links <paramref name="next"/>, whose count already includes this block's reference to it.</summary>
    public void Link(LogChunk next) => Volatile.Write(ref _next, next);

    public void AddReference() => Interlocked.Increment(ref _references);

    /// <summary>Drops one reference; a block freed this way drops its reference to the next one, iteratively.</summary>
    public void Release()
    {
        var chunk = this;
        while (chunk != null && Interlocked.Decrement(ref chunk._references) == 0)
        {
            var array = Interlocked.Exchange(ref chunk._array, null);
            if (array != null)
                EngineBuffers.Return(array);
            var next = chunk._next;
            chunk._next = null;
            chunk = next;
        }
    }
}
