using System;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Framing;

/// <summary>A delimiter after each message (<see cref="MessageFraming.Delimited"/>, <see cref="MessageFraming.Lines"/>).</summary>
internal sealed class DelimitedFraming : MessageFraming
{
    private const int MaxDelimiter = 16;

    private readonly byte[] _delimiter;
    private readonly bool _stripCarriageReturn;

    public DelimitedFraming(ReadOnlySpan<byte> delimiter, int maxMessageSize, bool stripCarriageReturn)
        : base(maxMessageSize)
    {
        if (delimiter.IsEmpty || delimiter.Length > MaxDelimiter)
            throw new ArgumentException($"a delimiter is 1 to {MaxDelimiter} bytes", nameof(delimiter));
        _delimiter = delimiter.ToArray();
        _stripCarriageReturn = stripCarriageReturn;
    }

    public override int Overhead => _delimiter.Length;

    internal override ReadOnlySpan<byte> Suffix => _delimiter;

    internal override FrameScan Next(ReadOnlySpan<byte> data, ref int scanned, out int start, out int length, out int consumed)
    {
        start = 0;
        length = 0;
        consumed = 0;
        // What an earlier call searched holds no delimiter, except one that the new bytes may complete.
        var from = Math.Max(0, Math.Min(scanned, data.Length) - (_delimiter.Length - 1));
        var found = data[from..].IndexOf(_delimiter);
        if (found < 0)
        {
            scanned = data.Length;
            // Without its delimiter the message is at least this long already (a line's \r may still be part of its end).
            var longest = MaxMessageSize + (_stripCarriageReturn ? 1 : 0);
            return data.Length - (_delimiter.Length - 1) > longest ? FrameScan.TooLarge : FrameScan.NeedMore;
        }
        scanned = 0;
        var end = from + found;
        consumed = end + _delimiter.Length;
        length = _stripCarriageReturn && end > 0 && data[end - 1] == (byte)'\r' ? end - 1 : end;
        return length > MaxMessageSize ? FrameScan.TooLarge : FrameScan.Message;
    }

    internal override int WritePrefix(ReadOnlySpan<byte> message, Span<byte> prefix)
    {
        FrameLength(message);
        return 0;
    }

    internal override int FrameLength(ReadOnlySpan<byte> message)
    {
        if (message.Length > MaxMessageSize)
            throw new ArgumentException($"the message has {message.Length} bytes, more than the framing's {MaxMessageSize}", nameof(message));
        if (message.IndexOf(_delimiter) >= 0)
            throw new ArgumentException("the message contains the delimiter, which would end it early", nameof(message));
        return message.Length + _delimiter.Length;
    }

    internal override void WriteFrame(ReadOnlySpan<byte> message, ref QueueWriter queue)
    {
        queue.Write(message);
        queue.Write(_delimiter);
    }
}
