using System;
using System.IO;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// A body of a known length made as it is read, byte i being <see cref="ByteAt"/>(i): read-only and forward-only, so a
/// server streaming it cannot learn its length or seek. <see cref="Produced"/> tells a test each read's size.
/// </summary>
internal abstract class GeneratedBodyStream(long length) : Stream
{
    private long _position;

    /// <summary>Byte <paramref name="i"/> of the body.</summary>
    protected abstract byte ByteAt(long i);

    /// <summary>A read has just produced <paramref name="count"/> bytes (0 at the end).</summary>
    protected virtual void Produced(int count)
    {
    }

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => false;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => _position; set => throw new NotSupportedException(); }
    public override void Flush() { }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override int Read(byte[] buffer, int offset, int count)
    {
        var n = (int)Math.Min(count, length - _position);
        for (var i = 0; i < n; i++)
            buffer[offset + i] = ByteAt(_position + i);
        _position += n;
        Produced(n);
        return n;
    }
}
