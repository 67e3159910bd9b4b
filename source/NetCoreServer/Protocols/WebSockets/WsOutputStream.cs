using System;
using System.Buffers;
using System.IO;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The write-only stream a <see cref="System.IO.Compression.DeflateStream"/> compresses into: a pooled array that
/// grows by doubling. <see cref="Reset"/> starts over (returning an array grown past <see cref="RetainedSize"/>);
/// while <see cref="Discarding"/>, writes are dropped (the final block a disposed compressor emits).
/// </summary>
internal sealed class WsOutputStream : Stream
{
    /// <summary>An array up to this size is kept between messages; a larger one goes back to the pool.</summary>
    public const int RetainedSize = 64 * 1024;

    private byte[]? _array;
    private int _length;

    public bool Discarding { get; set; }

    public ReadOnlySpan<byte> Written => _array.AsSpan(0, _length);

    public Span<byte> WrittenWritable => _array.AsSpan(0, _length);

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => _length;

    public override long Position
    {
        get => _length;
        set => throw new NotSupportedException();
    }

    public void Reset()
    {
        _length = 0;
        Discarding = false;
        if (_array != null && _array.Length > RetainedSize)
            ReturnArray();
    }

    public void ReturnArray()
    {
        if (_array != null)
            ArrayPool<byte>.Shared.Return(_array);
        _array = null;
        _length = 0;
    }

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        if (Discarding || buffer.IsEmpty)
            return;
        var needed = _length + buffer.Length;
        if (_array == null || needed > _array.Length)
        {
            var grown = ArrayPool<byte>.Shared.Rent(Math.Max(needed, Math.Max(1024, (_array?.Length ?? 0) * 2)));
            if (_array != null)
            {
                _array.AsSpan(0, _length).CopyTo(grown);
                ArrayPool<byte>.Shared.Return(_array);
            }
            _array = grown;
        }
        buffer.CopyTo(_array.AsSpan(_length));
        _length = needed;
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void WriteByte(byte value) => Write([value]);

    public override void Flush()
    {
    }

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    protected override void Dispose(bool disposing)
    {
        if (disposing)
            ReturnArray();
        base.Dispose(disposing);
    }
}
