using System;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Framing;

namespace NetCoreServer;

/// <summary>
/// How whole messages are cut out of a byte stream and written to it: a length prefix or a delimiter. Set it as a
/// connection's or a server's <c>Framing</c>; each complete message then reaches <c>OnReceivedMessage</c> however TCP
/// split or joined it, and <c>SendMessage</c> writes one. Immutable: one instance serves any number of connections.
/// </summary>
/// <remarks>
/// A message larger than <see cref="MaxMessageSize"/> (received, or still without its delimiter past that size) raises
/// <c>OnError(MessageSize)</c> and closes the connection with <see cref="DisconnectReason.ProtocolError"/>. Design notes:
/// docs/design/framing.md.
/// </remarks>
public abstract class MessageFraming
{
    /// <summary>The default largest message of <see cref="LengthPrefixed"/> and <see cref="Delimited"/>: 64 KiB.</summary>
    public const int DefaultMaxMessageSize = 64 * 1024;

    /// <summary>The default longest line of <see cref="Lines"/>: 4 KiB.</summary>
    public const int DefaultMaxLineLength = 4 * 1024;

    private protected MessageFraming(int maxMessageSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxMessageSize);
        MaxMessageSize = maxMessageSize;
    }

    /// <summary>The largest message accepted, in bytes, without its prefix or delimiter.</summary>
    public int MaxMessageSize { get; }

    /// <summary>The most bytes the framing adds to a message (a prefix or a delimiter).</summary>
    public abstract int Overhead { get; }

    /// <summary>
    /// Messages preceded by their length: <paramref name="lengthBytes"/> of 1, 2, 4 or 8, big-endian (network order) by
    /// default, counting the payload only unless <paramref name="lengthIncludesHeader"/>.
    /// </summary>
    /// <param name="lengthBytes">Size of the length field: 1, 2, 4 or 8 (default 4).</param>
    /// <param name="bigEndian">Byte order of the length field (default true: network order).</param>
    /// <param name="lengthIncludesHeader">True when the length counts the length field too (default false).</param>
    /// <param name="maxMessageSize">Largest payload accepted (it must fit the length field); 0 for <see cref="DefaultMaxMessageSize"/> or the most the field counts, whichever is less.</param>
    /// <returns>The framing.</returns>
    public static MessageFraming LengthPrefixed(int lengthBytes = 4, bool bigEndian = true, bool lengthIncludesHeader = false, int maxMessageSize = 0)
        => new LengthPrefixedFraming(lengthBytes, bigEndian, lengthIncludesHeader, maxMessageSize);

    /// <summary>Messages each followed by <paramref name="delimiter"/> (for example <c>"\r\n"u8</c> or a zero byte); a message must not contain it.</summary>
    /// <param name="delimiter">The bytes that end a message (1 to 16 bytes).</param>
    /// <param name="maxMessageSize">Largest message accepted, without the delimiter (default 64 KiB).</param>
    /// <returns>The framing.</returns>
    public static MessageFraming Delimited(ReadOnlySpan<byte> delimiter, int maxMessageSize = DefaultMaxMessageSize)
        => new DelimitedFraming(delimiter, maxMessageSize, stripCarriageReturn: false);

    /// <summary>
    /// Lines of text: each message ends with <c>\n</c>; a <c>\r</c> before it is not part of the line received, and
    /// <c>SendMessage</c> appends <c>\n</c>. Lines are UTF-8 by convention; the bytes are passed as they are.
    /// </summary>
    /// <param name="maxLineLength">Longest line accepted, in bytes without the line end (default 4 KiB).</param>
    /// <returns>The framing.</returns>
    public static MessageFraming Lines(int maxLineLength = DefaultMaxLineLength)
        => new DelimitedFraming("\n"u8, maxLineLength, stripCarriageReturn: true);

    /// <summary>
    /// Finds the next whole message at the front of <paramref name="data"/>. <paramref name="scanned"/> is the caller's
    /// per-connection memory of how far a previous call searched the same bytes (0 at the start of a message).
    /// </summary>
    internal abstract FrameScan Next(ReadOnlySpan<byte> data, ref int scanned, out int start, out int length, out int consumed);

    /// <summary>Writes what goes before <paramref name="message"/> into <paramref name="prefix"/> and returns its length; throws when the message cannot be framed.</summary>
    internal abstract int WritePrefix(ReadOnlySpan<byte> message, Span<byte> prefix);

    /// <summary>What goes after a message (the delimiter), or nothing.</summary>
    internal abstract ReadOnlySpan<byte> Suffix { get; }

    /// <summary>The bytes <paramref name="message"/> takes on the wire once framed; throws as <see cref="WritePrefix"/> does for one that cannot be sent.</summary>
    internal abstract int FrameLength(ReadOnlySpan<byte> message);

    /// <summary>Writes <paramref name="message"/> framed (<see cref="FrameLength"/> bytes, checked by it) into a send queue or the send cork.</summary>
    internal abstract void WriteFrame(ReadOnlySpan<byte> message, ref QueueWriter queue);

    /// <summary>The most bytes <see cref="WritePrefix"/> writes.</summary>
    internal const int MaxPrefix = 8;
}
