using System;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// One frame as <see cref="Http2FrameReader"/> read and checked it: the header fields, the payload with padding and
/// priority fields taken off, and the fields of its type. <see cref="Payload"/> points into the buffer handed to the
/// reader and is valid only until that buffer changes.
/// </summary>
internal readonly ref struct Http2Frame
{
    /// <summary>The frame type.</summary>
    public Http2FrameType Type { get; init; }

    /// <summary>The flags byte (<see cref="Http2FrameFlags"/>).</summary>
    public byte Flags { get; init; }

    /// <summary>The stream identifier, reserved bit cleared; 0 for the connection.</summary>
    public int StreamId { get; init; }

    /// <summary>The payload length on the wire, padding included: what a DATA frame takes from the flow-control windows (§6.9).</summary>
    public int Length { get; init; }

    /// <summary>
    /// DATA: the data; HEADERS, CONTINUATION: the field block fragment; SETTINGS: the parameters (6 bytes each);
    /// PING: the 8 opaque bytes; GOAWAY: the debug data; otherwise empty.
    /// </summary>
    public ReadOnlySpan<byte> Payload { get; init; }

    /// <summary>HEADERS with the PRIORITY flag, or PRIORITY: the stream this one depends on.</summary>
    public int StreamDependency { get; init; }

    /// <summary>HEADERS with the PRIORITY flag, or PRIORITY: the exclusive bit.</summary>
    public bool Exclusive { get; init; }

    /// <summary>HEADERS with the PRIORITY flag, or PRIORITY: the weight, 1 to 256.</summary>
    public int Weight { get; init; }

    /// <summary>RST_STREAM, GOAWAY: the error code.</summary>
    public Http2ErrorCode ErrorCode { get; init; }

    /// <summary>GOAWAY: the last stream the sender processed or may process.</summary>
    public int LastStreamId { get; init; }

    /// <summary>WINDOW_UPDATE: the increment, 1 to 2^31-1.</summary>
    public int WindowIncrement { get; init; }

    /// <summary>DATA, HEADERS: END_STREAM is set.</summary>
    public bool EndStream => (Flags & Http2FrameFlags.EndStream) != 0 && Type is Http2FrameType.Data or Http2FrameType.Headers;

    /// <summary>HEADERS, CONTINUATION: END_HEADERS is set.</summary>
    public bool EndHeaders => (Flags & Http2FrameFlags.EndHeaders) != 0 && Type is Http2FrameType.Headers or Http2FrameType.Continuation;

    /// <summary>SETTINGS, PING: ACK is set.</summary>
    public bool Ack => (Flags & Http2FrameFlags.Ack) != 0 && Type is Http2FrameType.Settings or Http2FrameType.Ping;
}
