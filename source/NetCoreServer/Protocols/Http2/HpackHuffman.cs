using System;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// HPACK's static Huffman code (RFC 7541 §5.2, Appendix B). The code is canonical (codes of one length are consecutive,
/// in symbol order, and shorter codes come first), so the table here is only the 257 code lengths from Appendix B; the
/// codes are derived from them once, and a test checks the result against the RFC's codes. Decoding reads 8 bits at a
/// time through a 256-entry table for the codes of 8 bits or fewer (the common characters), and walks the per-length
/// bounds for the rest. Padding must be the most significant bits of EOS (all ones) and shorter than 8 bits, and EOS
/// itself may not appear: anything else is a decoding error.
/// </summary>
internal static class HpackHuffman
{
    private const int Eos = 256;
    private const int MaxCodeLength = 30;

    private static readonly uint[] s_codes = new uint[257];
    // For each length L, one past the last code of length L, left-justified in 32 bits (in a ulong: 30-bit EOS ends at 2^32).
    private static readonly ulong[] s_limits = new ulong[MaxCodeLength + 1];
    private static readonly uint[] s_firstCode = new uint[MaxCodeLength + 1];
    private static readonly int[] s_firstSymbol = new int[MaxCodeLength + 1];
    private static readonly ushort[] s_sorted = new ushort[257];
    // Indexed by the next 8 bits: (length << 9) | symbol for codes of 8 bits or fewer, 0 when the code is longer.
    private static readonly ushort[] s_short = new ushort[256];

    // Appendix B's "len" column, for symbols 0 to 255 and then EOS.
    private static ReadOnlySpan<byte> CodeLengths =>
    [
        13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
        28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
        6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
        5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
        13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
        7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
        15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
        6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
        20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
        24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
        22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
        21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
        26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
        19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
        20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
        26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
        30,
    ];

    static HpackHuffman()
    {
        var lengths = CodeLengths;
        var next = 0;
        uint code = 0;
        for (var length = 1; length <= MaxCodeLength; length++)
        {
            s_firstCode[length] = code;
            s_firstSymbol[length] = next;
            for (var symbol = 0; symbol <= Eos; symbol++)
            {
                if (lengths[symbol] != length)
                    continue;
                s_codes[symbol] = code++;
                s_sorted[next++] = (ushort)symbol;
            }
            s_limits[length] = (ulong)code << (32 - length);
            code <<= 1;
        }
        for (var top = 0; top < 256; top++)
        {
            var window = (uint)top << 24;
            for (var length = 1; length <= 8; length++)
            {
                if (window < s_limits[length])
                {
                    s_short[top] = (ushort)((length << 9) | Symbol(window, length));
                    break;
                }
            }
        }
    }

    /// <summary>The code of a symbol (0-255, or 256 for EOS), right-aligned, and its length in bits.</summary>
    public static (uint Code, int Length) Code(int symbol) => (s_codes[symbol], CodeLengths[symbol]);

    /// <summary>How many bytes <paramref name="source"/> takes Huffman-coded, padding included.</summary>
    public static long EncodedLength(ReadOnlySpan<byte> source)
    {
        var lengths = CodeLengths;
        long bits = 0;
        foreach (var b in source)
            bits += lengths[b];
        return (bits + 7) >> 3;
    }

    /// <summary>The most bytes <paramref name="encodedLength"/> Huffman-coded bytes decode to (the shortest code is 5 bits).</summary>
    public static int MaxDecodedLength(int encodedLength) => (int)((encodedLength * 8L + 4) / 5);

    /// <summary>Huffman-codes <paramref name="source"/>; the destination must hold <see cref="EncodedLength"/> bytes. Returns the bytes written.</summary>
    public static int Encode(ReadOnlySpan<byte> source, Span<byte> destination)
    {
        var lengths = CodeLengths;
        ulong pending = 0;
        var bits = 0;
        var written = 0;
        foreach (var b in source)
        {
            pending = (pending << lengths[b]) | s_codes[b];
            bits += lengths[b];
            while (bits >= 8)
            {
                bits -= 8;
                destination[written++] = (byte)(pending >> bits);
            }
        }
        // Pad with the most significant bits of EOS, which are all ones (§5.2).
        if (bits > 0)
            destination[written++] = (byte)((pending << (8 - bits)) | (0xFFu >> bits));
        return written;
    }

    /// <summary>
    /// Decodes a Huffman-coded string into <paramref name="destination"/> (which should hold
    /// <see cref="MaxDecodedLength"/> bytes). False when it holds EOS, its padding is longer than 7 bits or not all
    /// ones, or the destination is too small.
    /// </summary>
    public static bool TryDecode(ReadOnlySpan<byte> source, Span<byte> destination, out int written)
    {
        written = 0;
        ulong pending = 0;
        var bits = 0;
        foreach (var b in source)
        {
            pending = (pending << 8) | b;
            bits += 8;
            while (bits >= 5)
            {
                // The next 32 bits, zero-filled past what has arrived: a code longer than what is here is never matched
                // by a shorter one, since no code is the prefix of another.
                var window = (uint)((pending << (64 - bits)) >> 32);
                int length, symbol;
                var entry = s_short[window >> 24];
                if (entry != 0)
                {
                    length = entry >> 9;
                    symbol = entry & 0x1ff;
                }
                else
                {
                    length = 9;
                    while (window >= s_limits[length])
                        length++;
                    symbol = Symbol(window, length);
                }
                if (length > bits)
                    break;
                if (symbol == Eos || written == destination.Length)
                    return false;
                destination[written++] = (byte)symbol;
                bits -= length;
            }
        }
        if (bits > 7)
            return false;
        var padding = (1UL << bits) - 1;
        return (pending & padding) == padding;
    }

    private static int Symbol(uint window, int length) => s_sorted[s_firstSymbol[length] + (int)((window >> (32 - length)) - s_firstCode[length])];
}
