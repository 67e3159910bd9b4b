using System;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// HPACK's prefixed integers (RFC 7541 §5.1): a value below 2^N - 1 fits the N-bit prefix of the first byte, a larger
/// one continues in 7-bit groups, least significant first. Values are bounded to <see cref="int.MaxValue"/>, and at most
/// five continuation bytes are read, so neither a huge value nor an endless run of 0x80 bytes can pass.
/// </summary>
internal static class HpackInteger
{
    /// <summary>The most bytes an integer takes: the prefix byte and five continuation bytes (int.MaxValue needs five).</summary>
    public const int MaxLength = 6;

    /// <summary>
    /// Reads the integer whose prefix byte is at <paramref name="position"/> in a complete header block and moves past it.
    /// False when the block ends inside it or the value passes <see cref="int.MaxValue"/> (both COMPRESSION_ERROR).
    /// </summary>
    public static bool TryRead(ReadOnlySpan<byte> block, ref int position, int prefixBits, out int value)
    {
        value = 0;
        var pos = position;
        if (pos >= block.Length)
            return false;
        var max = (1 << prefixBits) - 1;
        var result = block[pos++] & max;
        if (result < max)
        {
            position = pos;
            value = result;
            return true;
        }
        long total = result;
        for (var shift = 0; shift <= 28; shift += 7)
        {
            if (pos >= block.Length)
                return false;
            var b = block[pos++];
            total += (long)(b & 0x7f) << shift;
            if (total > int.MaxValue)
                return false;
            if ((b & 0x80) == 0)
            {
                position = pos;
                value = (int)total;
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// Writes <paramref name="value"/> with an N-bit prefix; <paramref name="flags"/> fills the prefix byte's high bits.
    /// Returns the bytes written (at most <see cref="MaxLength"/>; the destination must hold them).
    /// </summary>
    public static int Write(Span<byte> destination, int value, int prefixBits, byte flags)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(value);
        var max = (1 << prefixBits) - 1;
        if (value < max)
        {
            destination[0] = (byte)(flags | value);
            return 1;
        }
        destination[0] = (byte)(flags | max);
        var rest = value - max;
        var written = 1;
        while (rest >= 0x80)
        {
            destination[written++] = (byte)(rest | 0x80);
            rest >>= 7;
        }
        destination[written++] = (byte)rest;
        return written;
    }
}
