using System;
using System.IO;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The read-only stream a decompressing <see cref="System.IO.Compression.DeflateStream"/> pulls from: it hands out the
/// bytes set with <see cref="SetInput"/>, then reports the end (0) until more are set. A DeflateStream takes a 0 as
/// "no more for now" and keeps its state, which is what lets one decompressor run across reads and messages.
/// </summary>
internal sealed class WsInputStream : Stream
{
    private byte[] _array = [];
    private int _offset;
    private int _end;

    /// <summary>True when the reader asked for bytes and none were left (cleared by <see cref="ClearAskedWhenEmpty"/>).</summary>
    public bool AskedWhenEmpty { get; private set; }

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    /// <summary>Offers <paramref name="count"/> bytes of <paramref name="array"/> from <paramref name="offset"/>; the array must stay unchanged until they are read.</summary>
    public void SetInput(byte[] array, int offset, int count)
    {
        _array = array;
        _offset = offset;
        _end = offset + count;
    }

    public void ClearAskedWhenEmpty() => AskedWhenEmpty = false;

    public override int Read(Span<byte> buffer)
    {
        var n = Math.Min(buffer.Length, _end - _offset);
        if (n == 0)
        {
            AskedWhenEmpty = true;
            return 0;
        }
        _array.AsSpan(_offset, n).CopyTo(buffer);
        _offset += n;
        return n;
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}
