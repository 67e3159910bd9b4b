using System;
using System.Buffers.Binary;
using System.Text.Unicode;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Frame layout on the way out (RFC 6455 §5.2): headers with the shortest length encoding (7-bit up to 125, 16-bit up
/// to 65,535, 64-bit beyond), whole frames for multicast, and close payloads. Stateless and thread-safe; the
/// per-connection side (masking keys, compression) is <see cref="WsFrameWriter"/>.
/// </summary>
internal static class WsFrameEncoder
{
    /// <summary>The longest header: 2 bytes, a 64-bit length, a mask key.</summary>
    public const int MaxHeaderSize = 14;

    /// <summary>The largest payload a control frame (close, ping, pong) may carry (§5.5).</summary>
    public const int MaxControlPayload = 125;

    /// <summary>The longest close reason: the control payload less the two status bytes.</summary>
    public const int MaxCloseReason = MaxControlPayload - 2;

    /// <summary>The header size for a payload of <paramref name="payloadLength"/> bytes.</summary>
    public static int HeaderSize(long payloadLength, bool masked)
        => (payloadLength <= 125 ? 2 : payloadLength <= ushort.MaxValue ? 4 : 10) + (masked ? 4 : 0);

    /// <summary>
    /// Writes a frame header into <paramref name="destination"/> (at least <see cref="HeaderSize"/> bytes) and returns
    /// its size. <paramref name="compressed"/> sets RSV1 (permessage-deflate, first frame of a message only). When
    /// <paramref name="masked"/>, <paramref name="maskKey"/> (see <see cref="WsMask"/>) is written as the mask; the
    /// payload must then be masked with the same key. A control frame over 125 bytes or fragmented is refused
    /// (<see cref="ArgumentException"/>): no peer would accept it.
    /// </summary>
    public static int WriteHeader(Span<byte> destination, WsOpcode opcode, long payloadLength, bool fin = true, bool compressed = false, bool masked = false, uint maskKey = 0)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(payloadLength);
        if (IsControl(opcode) && (payloadLength > MaxControlPayload || !fin || compressed))
            throw new ArgumentException("a control frame carries at most 125 bytes, is never fragmented and never compressed", nameof(opcode));
        var first = (byte)((fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | (byte)opcode);
        var maskBit = masked ? 0x80 : 0;
        int size;
        destination[0] = first;
        if (payloadLength <= 125)
        {
            destination[1] = (byte)(maskBit | (int)payloadLength);
            size = 2;
        }
        else if (payloadLength <= ushort.MaxValue)
        {
            destination[1] = (byte)(maskBit | 126);
            BinaryPrimitives.WriteUInt16BigEndian(destination[2..], (ushort)payloadLength);
            size = 4;
        }
        else
        {
            destination[1] = (byte)(maskBit | 127);
            BinaryPrimitives.WriteUInt64BigEndian(destination[2..], (ulong)payloadLength);
            size = 10;
        }
        if (masked)
        {
            WsMask.WriteKey(destination[size..], maskKey);
            size += 4;
        }
        return size;
    }

    /// <summary>The size of a whole frame (header and payload).</summary>
    public static int FrameSize(int payloadLength, bool masked) => checked(HeaderSize(payloadLength, masked) + payloadLength);

    /// <summary>
    /// Writes a whole unmasked server frame (header and payload) into <paramref name="destination"/> (at least
    /// <see cref="FrameSize"/> bytes) and returns its size. For multicast: the frame is encoded once and the same bytes
    /// go to every session. It is never compressed (each session's compression context is its own; RFC 7692 lets any
    /// message go uncompressed).
    /// </summary>
    public static int WriteServerFrame(Span<byte> destination, WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        var size = WriteHeader(destination, opcode, payload.Length);
        payload.CopyTo(destination[size..]);
        return size + payload.Length;
    }

    /// <summary>A whole server frame in a pooled array (see <see cref="WriteServerFrame"/>); dispose it once its bytes are queued.</summary>
    public static WsPooledFrame RentServerFrame(WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        var frame = WsPooledFrame.Rent(FrameSize(payload.Length, masked: false));
        WriteServerFrame(frame.Writable, opcode, payload);
        return frame;
    }

    /// <summary>
    /// Writes a close frame's payload (§5.5.1) into <paramref name="destination"/> (at least
    /// <see cref="MaxControlPayload"/> bytes) and returns its size: the status in network order and the reason. A
    /// status that may not travel on the wire (1005, 1006, 1015, anything outside <see cref="WsCloseStatus.IsValidOnWire"/>)
    /// gives an empty payload, which the peer reads as 1005 (no status). The reason is cut to 123 bytes at a character
    /// boundary, and dropped when it is not valid UTF-8 (the peer would fail the connection with 1007 otherwise).
    /// </summary>
    public static int WriteClosePayload(Span<byte> destination, int status, ReadOnlySpan<byte> reason)
    {
        if (!WsCloseStatus.IsValidOnWire(status))
            return 0;
        BinaryPrimitives.WriteUInt16BigEndian(destination, (ushort)status);
        if (reason.Length > MaxCloseReason)
        {
            var cut = MaxCloseReason;
            // Back off over continuation bytes to the start of the character that does not fit.
            while (cut > 0 && (reason[cut] & 0xC0) == 0x80)
                cut--;
            reason = reason[..cut];
        }
        if (!Utf8.IsValid(reason))
            return 2;
        reason.CopyTo(destination[2..]);
        return 2 + reason.Length;
    }

    public static bool IsControl(WsOpcode opcode) => ((byte)opcode & 0x8) != 0;
}
