using System;
using System.Buffers.Binary;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Writes frames (RFC 9113 §4.1, §6) into a span the caller sized (each method says how many bytes it needs) and
/// returns the bytes written. A field block longer than the peer's SETTINGS_MAX_FRAME_SIZE is cut into HEADERS and
/// CONTINUATION frames written back to back, as one unit, since nothing may come between them (§6.10).
/// </summary>
internal static class Http2FrameWriter
{
    /// <summary>Writes a frame header: a payload length below 2^24, the type, flags and stream (reserved bit clear).</summary>
    public static int WriteHeader(Span<byte> destination, int length, Http2FrameType type, byte flags, int streamId)
    {
        if ((uint)length > Http2Settings.MaxMaxFrameSize)
            throw new ArgumentOutOfRangeException(nameof(length), length, "A frame payload is below 2^24.");
        destination[0] = (byte)(length >> 16);
        destination[1] = (byte)(length >> 8);
        destination[2] = (byte)length;
        destination[3] = (byte)type;
        destination[4] = flags;
        BinaryPrimitives.WriteUInt32BigEndian(destination[5..], (uint)streamId & 0x7fff_ffff);
        return Http2FrameReader.HeaderLength;
    }

    /// <summary>DATA with <paramref name="data"/> copied in: 9 + data bytes.</summary>
    public static int WriteData(Span<byte> destination, int streamId, ReadOnlySpan<byte> data, bool endStream)
    {
        var written = WriteHeader(destination, data.Length, Http2FrameType.Data, endStream ? Http2FrameFlags.EndStream : (byte)0, streamId);
        data.CopyTo(destination[written..]);
        return written + data.Length;
    }

    /// <summary>The bytes <see cref="WriteHeaders"/> needs for a field block of <paramref name="blockLength"/> bytes.</summary>
    public static int HeadersLength(int blockLength, int maxFrameSize)
    {
        var frames = Math.Max(1, (blockLength + maxFrameSize - 1) / maxFrameSize);
        return blockLength + frames * Http2FrameReader.HeaderLength;
    }

    /// <summary>HEADERS, then as many CONTINUATION frames as the block needs at <paramref name="maxFrameSize"/> each.</summary>
    public static int WriteHeaders(Span<byte> destination, int streamId, ReadOnlySpan<byte> block, bool endStream, int maxFrameSize)
    {
        if (maxFrameSize is < Http2Settings.MinMaxFrameSize or > Http2Settings.MaxMaxFrameSize)
            throw new ArgumentOutOfRangeException(nameof(maxFrameSize), maxFrameSize, "SETTINGS_MAX_FRAME_SIZE is 2^14 to 2^24-1.");
        var written = 0;
        var type = Http2FrameType.Headers;
        do
        {
            var part = block[..Math.Min(block.Length, maxFrameSize)];
            block = block[part.Length..];
            var flags = (byte)(block.IsEmpty ? Http2FrameFlags.EndHeaders : 0);
            if (type == Http2FrameType.Headers && endStream)
                flags |= Http2FrameFlags.EndStream;
            written += WriteHeader(destination[written..], part.Length, type, flags, streamId);
            part.CopyTo(destination[written..]);
            written += part.Length;
            type = Http2FrameType.Continuation;
        }
        while (!block.IsEmpty);
        return written;
    }

    /// <summary>SETTINGS with the given parameters: 9 + 6 per parameter.</summary>
    public static int WriteSettings(Span<byte> destination, ReadOnlySpan<(Http2SettingId Id, uint Value)> parameters)
    {
        var written = WriteHeader(destination, parameters.Length * 6, Http2FrameType.Settings, 0, 0);
        foreach (var (id, value) in parameters)
        {
            BinaryPrimitives.WriteUInt16BigEndian(destination[written..], (ushort)id);
            BinaryPrimitives.WriteUInt32BigEndian(destination[(written + 2)..], value);
            written += 6;
        }
        return written;
    }

    /// <summary>A SETTINGS acknowledgement: 9 bytes.</summary>
    public static int WriteSettingsAck(Span<byte> destination) => WriteHeader(destination, 0, Http2FrameType.Settings, Http2FrameFlags.Ack, 0);

    /// <summary>PING, or its acknowledgement echoing the 8 opaque bytes: 17 bytes.</summary>
    public static int WritePing(Span<byte> destination, ReadOnlySpan<byte> opaque, bool ack)
    {
        if (opaque.Length != 8)
            throw new ArgumentException("PING carries 8 bytes.", nameof(opaque));
        var written = WriteHeader(destination, 8, Http2FrameType.Ping, ack ? Http2FrameFlags.Ack : (byte)0, 0);
        opaque.CopyTo(destination[written..]);
        return written + 8;
    }

    /// <summary>GOAWAY: 17 bytes plus the debug data.</summary>
    public static int WriteGoAway(Span<byte> destination, int lastStreamId, Http2ErrorCode code, ReadOnlySpan<byte> debugData)
    {
        var written = WriteHeader(destination, 8 + debugData.Length, Http2FrameType.GoAway, 0, 0);
        BinaryPrimitives.WriteUInt32BigEndian(destination[written..], (uint)lastStreamId & 0x7fff_ffff);
        BinaryPrimitives.WriteUInt32BigEndian(destination[(written + 4)..], (uint)code);
        debugData.CopyTo(destination[(written + 8)..]);
        return written + 8 + debugData.Length;
    }

    /// <summary>RST_STREAM: 13 bytes.</summary>
    public static int WriteRstStream(Span<byte> destination, int streamId, Http2ErrorCode code)
    {
        var written = WriteHeader(destination, 4, Http2FrameType.RstStream, 0, streamId);
        BinaryPrimitives.WriteUInt32BigEndian(destination[written..], (uint)code);
        return written + 4;
    }

    /// <summary>WINDOW_UPDATE for a stream, or the connection (stream 0): 13 bytes; the increment is 1 to 2^31-1.</summary>
    public static int WriteWindowUpdate(Span<byte> destination, int streamId, int increment)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(increment);
        var written = WriteHeader(destination, 4, Http2FrameType.WindowUpdate, 0, streamId);
        BinaryPrimitives.WriteUInt32BigEndian(destination[written..], (uint)increment);
        return written + 4;
    }
}
