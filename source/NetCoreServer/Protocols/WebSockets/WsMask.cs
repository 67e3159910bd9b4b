using System;
using System.Numerics;
using System.Runtime.InteropServices;
using System.Security.Cryptography;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Frame masking (RFC 6455 §5.3). A key is the four mask bytes as they appear on the wire, read in machine order, so
/// XOR-ing machine words with the key repeated masks the bytes in wire order on any endianness.
/// </summary>
internal static class WsMask
{
    // Keys come from the system's cryptographic generator (§5.3: a client must not let a script predict them), taken a
    // block at a time per thread so a frame does not pay for a call into the generator.
    private const int KeysPerRefill = 64;

    [ThreadStatic]
    private static byte[]? t_keys;

    [ThreadStatic]
    private static int t_next;

    /// <summary>A fresh unpredictable key for one frame.</summary>
    public static uint NewKey()
    {
        var keys = t_keys;
        if (keys == null || t_next == KeysPerRefill)
        {
            keys = t_keys ??= new byte[KeysPerRefill * 4];
            RandomNumberGenerator.Fill(keys);
            t_next = 0;
        }
        return MemoryMarshal.Read<uint>(keys.AsSpan(4 * t_next++, 4));
    }

    /// <summary>Reads a key from the four mask bytes of a frame header.</summary>
    public static uint ReadKey(ReadOnlySpan<byte> maskBytes) => MemoryMarshal.Read<uint>(maskBytes);

    /// <summary>Writes a key as the four mask bytes of a frame header.</summary>
    public static void WriteKey(Span<byte> destination, uint key) => MemoryMarshal.Write(destination, in key);

    /// <summary>
    /// Writes <paramref name="source"/> XOR the mask into <paramref name="destination"/> (the same span masks in place;
    /// other overlaps are not allowed). <paramref name="position"/> is the offset of <paramref name="source"/>'s first
    /// byte within the frame payload, so a payload can be masked in pieces.
    /// </summary>
    public static void Apply(ReadOnlySpan<byte> source, Span<byte> destination, uint key, long position = 0)
    {
        if (destination.Length < source.Length)
            throw new ArgumentException("the destination is shorter than the source", nameof(destination));
        var phase = (int)(position & 3);
        if (phase != 0)
        {
            // Start mid-key: the key as it reads from mask byte `phase` onwards.
            key = BitConverter.IsLittleEndian ? BitOperations.RotateRight(key, 8 * phase) : BitOperations.RotateLeft(key, 8 * phase);
        }

        var i = 0;
        var length = source.Length;
        if (Vector.IsHardwareAccelerated && length >= Vector<byte>.Count)
        {
            var mask = Vector.AsVectorByte(new Vector<uint>(key));
            for (; i <= length - Vector<byte>.Count; i += Vector<byte>.Count)
                (new Vector<byte>(source[i..]) ^ mask).CopyTo(destination[i..]);
        }
        var wide = ((ulong)key << 32) | key;
        for (; i <= length - 8; i += 8)
            MemoryMarshal.Write(destination[i..], MemoryMarshal.Read<ulong>(source[i..]) ^ wide);
        for (; i < length; i++)
        {
            var shift = BitConverter.IsLittleEndian ? 8 * (i & 3) : 24 - 8 * (i & 3);
            destination[i] = (byte)(source[i] ^ (byte)(key >> shift));
        }
    }
}
