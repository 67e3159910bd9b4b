using System;
using NetCoreServer.Engine;
using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace NetCoreServer.Protocols.Framing;

/// <summary>A length field of 1, 2, 4 or 8 bytes before each message (<see cref="MessageFraming.LengthPrefixed"/>).</summary>
internal sealed class LengthPrefixedFraming : MessageFraming
{
    private readonly int _lengthBytes;
    private readonly bool _bigEndian;
    private readonly bool _includesHeader;

    public LengthPrefixedFraming(int lengthBytes, bool bigEndian, bool lengthIncludesHeader, int maxMessageSize)
        : base(maxMessageSize == 0 ? DefaultFor(lengthBytes, lengthIncludesHeader) : maxMessageSize)
    {
        if (MaxMessageSize + (lengthIncludesHeader ? lengthBytes : 0) > FieldMax(lengthBytes))
            throw new ArgumentOutOfRangeException(nameof(maxMessageSize), maxMessageSize, $"a {lengthBytes}-byte length field cannot count a message that large");
        _lengthBytes = lengthBytes;
        _bigEndian = bigEndian;
        _includesHeader = lengthIncludesHeader;
    }

    public override int Overhead => _lengthBytes;

    // The default maximum: DefaultMaxMessageSize, or less when the field cannot count that much.
    private static int DefaultFor(int lengthBytes, bool includesHeader)
        => (int)Math.Min(DefaultMaxMessageSize, FieldMax(lengthBytes) - (includesHeader ? lengthBytes : 0));

    private static long FieldMax(int lengthBytes) => lengthBytes switch
    {
        1 or 2 or 4 => (1L << (8 * lengthBytes)) - 1,
        8 => long.MaxValue,
        _ => throw new ArgumentOutOfRangeException(nameof(lengthBytes), lengthBytes, "the length field is 1, 2, 4 or 8 bytes"),
    };

    internal override ReadOnlySpan<byte> Suffix => default;

    internal override FrameScan Next(ReadOnlySpan<byte> data, ref int scanned, out int start, out int length, out int consumed)
    {
        start = _lengthBytes;
        length = 0;
        consumed = 0;
        if (data.Length < _lengthBytes)
            return FrameScan.NeedMore;
        var field = ReadLength(data);
        if (_includesHeader)
        {
            if (field < (ulong)_lengthBytes)
                return FrameScan.Invalid;
            field -= (ulong)_lengthBytes;
        }
        if (field > (ulong)MaxMessageSize)
            return FrameScan.TooLarge;
        length = (int)field;
        if (data.Length - _lengthBytes < length)
            return FrameScan.NeedMore;
        consumed = _lengthBytes + length;
        return FrameScan.Message;
    }

    internal override int WritePrefix(ReadOnlySpan<byte> message, Span<byte> prefix)
    {
        FrameLength(message);
        WriteField(message.Length, prefix);
        return _lengthBytes;
    }

    internal override int FrameLength(ReadOnlySpan<byte> message)
    {
        if (message.Length > MaxMessageSize)
            throw new ArgumentException($"the message has {message.Length} bytes, more than the framing's {MaxMessageSize}", nameof(message));
        return _lengthBytes + message.Length;
    }

    internal override void WriteFrame(ReadOnlySpan<byte> message, ref QueueWriter queue)
    {
        var total = _lengthBytes + message.Length;
        if (queue.TryGetSpan(total, out var span))
        {
            // Field and payload written in place at the end of the send queue.
            WriteField(message.Length, span);
            message.CopyTo(span[_lengthBytes..]);
            queue.Advance(total);
            return;
        }
        // A local, not stackalloc: a stackalloc makes the JIT copy the span arguments behind a stack cookie on every
        // call, and reading that copy back stalls (store forwarding): a quarter of the framed echo server's time.
        ulong scratch = 0;
        var prefix = MemoryMarshal.AsBytes(new Span<ulong>(ref scratch));
        WriteField(message.Length, prefix);
        queue.Write(prefix[.._lengthBytes]);
        queue.Write(message);
    }

    private void WriteField(int messageLength, Span<byte> target)
    {
        var field = (ulong)messageLength + (_includesHeader ? (ulong)_lengthBytes : 0);
        switch (_lengthBytes)
        {
            case 1:
                target[0] = (byte)field;
                break;
            case 2:
                if (_bigEndian)
                    BinaryPrimitives.WriteUInt16BigEndian(target, (ushort)field);
                else
                    BinaryPrimitives.WriteUInt16LittleEndian(target, (ushort)field);
                break;
            case 4:
                if (_bigEndian)
                    BinaryPrimitives.WriteUInt32BigEndian(target, (uint)field);
                else
                    BinaryPrimitives.WriteUInt32LittleEndian(target, (uint)field);
                break;
            default:
                if (_bigEndian)
                    BinaryPrimitives.WriteUInt64BigEndian(target, field);
                else
                    BinaryPrimitives.WriteUInt64LittleEndian(target, field);
                break;
        }
    }

    private ulong ReadLength(ReadOnlySpan<byte> data) => _lengthBytes switch
    {
        1 => data[0],
        2 => _bigEndian ? BinaryPrimitives.ReadUInt16BigEndian(data) : BinaryPrimitives.ReadUInt16LittleEndian(data),
        4 => _bigEndian ? BinaryPrimitives.ReadUInt32BigEndian(data) : BinaryPrimitives.ReadUInt32LittleEndian(data),
        _ => _bigEndian ? BinaryPrimitives.ReadUInt64BigEndian(data) : BinaryPrimitives.ReadUInt64LittleEndian(data),
    };
}
