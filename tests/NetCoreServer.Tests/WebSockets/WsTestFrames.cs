using System;
using System.Collections.Generic;
using System.Text;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// Frames built byte by byte for the tests, independently of the encoder under test: any first byte (reserved bits and
/// opcodes included), a chosen length encoding, and masking by the plain definition (RFC 6455 §5.3: octet i XOR mask
/// octet i mod 4).
/// </summary>
internal static class WsTestFrames
{
    /// <summary>A fixed mask for readable expectations: the one RFC 6455 §5.7 uses.</summary>
    public static readonly byte[] RfcMask = [0x37, 0xfa, 0x21, 0x3d];

    /// <summary>
    /// A frame with first byte <paramref name="first"/> (FIN, RSV, opcode). <paramref name="mask"/> null leaves it
    /// unmasked. <paramref name="lengthBytes"/> forces the length encoding: 0 the shortest, 2 or 8 the extended forms.
    /// </summary>
    public static byte[] Frame(int first, ReadOnlySpan<byte> payload, byte[]? mask = null, int lengthBytes = 0)
    {
        var bytes = new List<byte> { (byte)first };
        var maskBit = mask != null ? 0x80 : 0;
        var length = payload.Length;
        if (lengthBytes == 0)
            lengthBytes = length <= 125 ? 0 : length <= 0xFFFF ? 2 : 8;
        if (lengthBytes == 0)
        {
            bytes.Add((byte)(maskBit | length));
        }
        else if (lengthBytes == 2)
        {
            bytes.Add((byte)(maskBit | 126));
            bytes.Add((byte)(length >> 8));
            bytes.Add((byte)length);
        }
        else
        {
            bytes.Add((byte)(maskBit | 127));
            for (var i = 7; i >= 0; i--)
                bytes.Add((byte)((long)length >> (8 * i)));
        }
        if (mask != null)
            bytes.AddRange(mask);
        for (var i = 0; i < length; i++)
            bytes.Add(mask != null ? (byte)(payload[i] ^ mask[i % 4]) : payload[i]);
        return bytes.ToArray();
    }

    /// <summary>A text frame's payload.</summary>
    public static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

    public static byte[] Concat(params byte[][] parts)
    {
        var all = new List<byte>();
        foreach (var part in parts)
            all.AddRange(part);
        return all.ToArray();
    }

    /// <summary>A close payload: the status in network order, then the reason bytes.</summary>
    public static byte[] ClosePayload(int status, byte[]? reason = null)
        => Concat([(byte)(status >> 8), (byte)status], reason ?? []);
}
