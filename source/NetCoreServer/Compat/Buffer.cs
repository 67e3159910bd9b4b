using System;
using System.Text;

namespace NetCoreServer;

/// <summary>
/// A growable byte buffer (NetCoreServer's <c>Buffer</c>): <see cref="Data"/> holds <see cref="Size"/> valid bytes
/// from index 0, and <see cref="Offset"/> is a read cursor into them that <see cref="Shift"/> and
/// <see cref="Unshift"/> move. HTTP messages keep their wire bytes in one (<see cref="HttpRequest.Cache"/>,
/// <see cref="HttpResponse.Cache"/>). Growing doubles the capacity, so appends cost amortised O(1) and a reused
/// buffer stops allocating once it has grown to its largest message. Not thread-safe.
/// </summary>
public class Buffer
{
    // Below this many characters a string is encoded straight into its worst-case UTF-8 size (3 bytes a char);
    // longer ones are measured first so a large text does not reserve three times its size.
    private const int EncodeWithoutCountingBelow = 256;

    private byte[] _data;
    private long _size;
    private long _offset;

    /// <summary>Creates an empty buffer with no capacity (it grows on the first append).</summary>
    public Buffer() => _data = Array.Empty<byte>();

    /// <summary>Creates an empty buffer with room for <paramref name="capacity"/> bytes.</summary>
    /// <param name="capacity">Initial capacity in bytes.</param>
    public Buffer(long capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        _data = capacity == 0 ? Array.Empty<byte>() : new byte[capacity];
    }

    /// <summary>Wraps <paramref name="data"/> (not copied): its whole length is the buffer's content.</summary>
    /// <param name="data">The bytes to wrap.</param>
    public Buffer(byte[] data)
    {
        ArgumentNullException.ThrowIfNull(data);
        _data = data;
        _size = data.Length;
    }

    /// <summary>True when the buffer holds no bytes.</summary>
    public bool IsEmpty => _size == 0;

    /// <summary>The underlying array; its first <see cref="Size"/> bytes are the content. Replaced when the buffer grows.</summary>
    public byte[] Data => _data;

    /// <summary>The length of <see cref="Data"/>: how many bytes fit before the buffer has to grow.</summary>
    public long Capacity => _data.Length;

    /// <summary>The number of valid bytes, from index 0.</summary>
    public long Size => _size;

    /// <summary>The read cursor, moved by <see cref="Shift"/> and <see cref="Unshift"/>; cleared by <see cref="Clear"/>.</summary>
    public long Offset => _offset;

    /// <summary>The byte at <paramref name="index"/> of <see cref="Data"/> (not checked against <see cref="Size"/>).</summary>
    /// <param name="index">Index into <see cref="Data"/>.</param>
    public byte this[long index] => _data[index];

    /// <summary>The bytes from <see cref="Offset"/> to <see cref="Size"/> (all of them while the cursor is at 0), without copying; valid until the buffer next changes.</summary>
    public Span<byte> AsSpan() => _data.AsSpan((int)_offset, (int)(_size - _offset));

    /// <summary>The whole content (from index 0) decoded as UTF-8.</summary>
    public override string ToString() => ExtractString(0, _size);

    /// <summary>Empties the buffer and resets the cursor; the capacity is kept for reuse.</summary>
    public void Clear()
    {
        _size = 0;
        _offset = 0;
    }

    /// <summary>Decodes <paramref name="size"/> bytes from <paramref name="offset"/> as UTF-8.</summary>
    /// <param name="offset">Start index.</param>
    /// <param name="size">Number of bytes.</param>
    /// <exception cref="ArgumentException">The range is not inside the content.</exception>
    public string ExtractString(long offset, long size)
    {
        CheckRange(offset, size);
        return size == 0 ? string.Empty : Encoding.UTF8.GetString(_data, (int)offset, (int)size);
    }

    /// <summary>
    /// Removes <paramref name="size"/> bytes from <paramref name="offset"/>, moving the rest down; a cursor past the
    /// removed range moves with the bytes, one inside it goes to its start.
    /// </summary>
    /// <param name="offset">Start index.</param>
    /// <param name="size">Number of bytes.</param>
    /// <exception cref="ArgumentException">The range is not inside the content.</exception>
    public void Remove(long offset, long size)
    {
        CheckRange(offset, size);
        var end = offset + size;
        _data.AsSpan((int)end, (int)(_size - end)).CopyTo(_data.AsSpan((int)offset));
        _size -= size;
        if (_offset >= end)
            _offset -= size;
        else if (_offset > offset)
            _offset = offset;
    }

    /// <summary>Makes room for at least <paramref name="capacity"/> bytes, at least doubling when it grows; the content is kept.</summary>
    /// <param name="capacity">The capacity needed.</param>
    /// <exception cref="ArgumentException"><paramref name="capacity"/> is negative.</exception>
    public void Reserve(long capacity)
    {
        if (capacity < 0)
            throw new ArgumentException("The capacity must not be negative.", nameof(capacity));
        if (capacity <= _data.Length)
            return;
        var grown = Math.Max(capacity, Math.Min(2L * _data.Length, Array.MaxLength));
        var data = new byte[grown];
        _data.AsSpan(0, (int)_size).CopyTo(data);
        _data = data;
    }

    /// <summary>Sets the content length to <paramref name="size"/> (growing if needed; new bytes are not cleared); the cursor stays within it.</summary>
    /// <param name="size">The new size.</param>
    public void Resize(long size)
    {
        Reserve(size);
        _size = size;
        if (_offset > _size)
            _offset = _size;
    }

    /// <summary>Moves the cursor forward by <paramref name="offset"/> bytes.</summary>
    /// <param name="offset">How far to move.</param>
    public void Shift(long offset) => _offset += offset;

    /// <summary>Moves the cursor back by <paramref name="offset"/> bytes.</summary>
    /// <param name="offset">How far to move.</param>
    public void Unshift(long offset) => _offset -= offset;

    /// <summary>Appends one byte.</summary>
    /// <param name="value">The byte.</param>
    /// <returns>The number of bytes appended (1).</returns>
    public long Append(byte value)
    {
        Reserve(_size + 1);
        _data[_size++] = value;
        return 1;
    }

    /// <summary>Appends all of <paramref name="buffer"/>.</summary>
    /// <param name="buffer">The bytes to append.</param>
    /// <returns>The number of bytes appended.</returns>
    public long Append(byte[] buffer) => Append(new ReadOnlySpan<byte>(buffer));

    /// <summary>Appends <paramref name="size"/> bytes of <paramref name="buffer"/> from <paramref name="offset"/>.</summary>
    /// <param name="buffer">The source array.</param>
    /// <param name="offset">Start index in <paramref name="buffer"/>.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>The number of bytes appended.</returns>
    public long Append(byte[] buffer, long offset, long size) => Append(new ReadOnlySpan<byte>(buffer, (int)offset, (int)size));

    /// <summary>Appends <paramref name="buffer"/>.</summary>
    /// <param name="buffer">The bytes to append.</param>
    /// <returns>The number of bytes appended.</returns>
    public long Append(ReadOnlySpan<byte> buffer)
    {
        Reserve(_size + buffer.Length);
        buffer.CopyTo(_data.AsSpan((int)_size));
        _size += buffer.Length;
        return buffer.Length;
    }

    /// <summary>Appends the bytes of another buffer from its cursor to its end (see <see cref="AsSpan"/>).</summary>
    /// <param name="buffer">The buffer to append.</param>
    /// <returns>The number of bytes appended.</returns>
    public long Append(Buffer buffer) => Append((ReadOnlySpan<byte>)buffer.AsSpan());

    /// <summary>Appends <paramref name="text"/> encoded as UTF-8.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The number of bytes appended.</returns>
    public long Append(string text) => Append(text.AsSpan());

    /// <summary>Appends <paramref name="text"/> encoded as UTF-8.</summary>
    /// <param name="text">The text.</param>
    /// <returns>The number of bytes appended.</returns>
    public long Append(ReadOnlySpan<char> text)
    {
        if (text.IsEmpty)
            return 0;
        var room = text.Length < EncodeWithoutCountingBelow ? Encoding.UTF8.GetMaxByteCount(text.Length) : Encoding.UTF8.GetByteCount(text);
        Reserve(_size + room);
        var written = Encoding.UTF8.GetBytes(text, _data.AsSpan((int)_size));
        _size += written;
        return written;
    }

    private void CheckRange(long offset, long size)
    {
        if (offset < 0 || size < 0 || offset + size > _size)
            throw new ArgumentException("The offset and size must lie inside the buffer's content.", nameof(offset));
    }
}
