using System;
using System.Buffers;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Joins the fragments of one field block (a HEADERS frame without END_HEADERS and its CONTINUATIONs) for
/// <see cref="HpackDecoder"/>, which decodes whole blocks. A block that comes in one HEADERS frame needs none of this:
/// its fragment is decoded where it lies. The buffer is rented from the pool when a block starts and returned when it
/// ends, and a block may not grow past <see cref="MaxBlockSize"/>: that bound is the CONTINUATION flood defence
/// (CVE-2024-27316), since an endless run of CONTINUATION frames would otherwise grow memory without end. A block
/// cannot be skipped (HPACK state would be lost), so a block past the bound is a connection error. Not thread-safe.
/// </summary>
internal sealed class Http2FieldBlockBuffer : IDisposable
{
    private byte[]? _buffer;
    private int _length;

    /// <param name="maxBlockSize">See <see cref="MaxBlockSize"/>.</param>
    public Http2FieldBlockBuffer(int maxBlockSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxBlockSize);
        MaxBlockSize = maxBlockSize;
    }

    /// <summary>
    /// The largest block joined. A block is never larger than the header list it encodes, apart from a few bytes of
    /// size updates, so the header list limit plus a little is a safe value.
    /// </summary>
    public int MaxBlockSize { get; }

    /// <summary>The stream whose block is being joined, or 0.</summary>
    public int StreamId { get; private set; }

    /// <summary>The fragments joined so far.</summary>
    public ReadOnlySpan<byte> Block => _buffer.AsSpan(0, _length);

    /// <summary>Starts a block with a HEADERS fragment; false when it is already past <see cref="MaxBlockSize"/>.</summary>
    public bool TryStart(int streamId, ReadOnlySpan<byte> fragment)
    {
        Reset();
        StreamId = streamId;
        return TryAppend(fragment);
    }

    /// <summary>Adds a CONTINUATION fragment; false, and nothing added, when the block would pass <see cref="MaxBlockSize"/>.</summary>
    public bool TryAppend(ReadOnlySpan<byte> fragment)
    {
        if ((long)_length + fragment.Length > MaxBlockSize)
            return false;
        var needed = _length + fragment.Length;
        if (_buffer == null || needed > _buffer.Length)
        {
            var grown = ArrayPool<byte>.Shared.Rent(Math.Min(MaxBlockSize, Math.Max(needed, 2 * (_buffer?.Length ?? 1024))));
            Block.CopyTo(grown);
            if (_buffer != null)
                ArrayPool<byte>.Shared.Return(_buffer);
            _buffer = grown;
        }
        fragment.CopyTo(_buffer.AsSpan(_length));
        _length = needed;
        return true;
    }

    /// <summary>The block was decoded (or the connection is ending): the buffer goes back to the pool.</summary>
    public void Reset()
    {
        if (_buffer != null)
            ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = null;
        _length = 0;
        StreamId = 0;
    }

    /// <summary>Same as <see cref="Reset"/>.</summary>
    public void Dispose() => Reset();
}
