using System;
using System.Buffers.Binary;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Reads the frames a server receives (RFC 9113 §4, §6) on Kestrel's input contract: <see cref="Read"/> is handed
/// everything received and not consumed yet, returns at most one frame and says how much it consumed; the caller keeps
/// the rest and hands it again, first, with more. A frame is consumed only when whole, so nothing is copied, and one
/// whose header declares more than <see cref="MaxFrameSize"/> is refused before its payload arrives: a peer can make
/// the caller hold at most one frame. Checked here, everything that needs no stream state: the client preface and the
/// SETTINGS frame after it (§3.4), frame sizes, stream 0 or not per type, padding, SETTINGS values, the zero window
/// increment, CONTINUATION directly after an open field block and nothing else in between (§6.10), PUSH_PROMISE from
/// a client (§8.4); unknown frame types are skipped (§5.5). Stream states, flow control and field blocks belong to
/// the caller. Not thread-safe.
/// </summary>
internal sealed class Http2FrameReader
{
    /// <summary>The length of a frame header.</summary>
    public const int HeaderLength = 9;

    private enum State
    {
        Preface,
        FirstFrame,
        Frames,
        Failed,
    }

    private State _state;
    private int _maxFrameSize = Http2Settings.MinMaxFrameSize;
    // The stream whose field block is open (a HEADERS without END_HEADERS was read), or 0.
    private int _fieldBlockStream;

    /// <param name="expectPreface">
    /// True when the connection's first bytes are the client preface (h2c with prior knowledge, h2 after ALPN); false
    /// when the caller has already checked it (the reader then still wants SETTINGS first).
    /// </param>
    public Http2FrameReader(bool expectPreface = true)
    {
        _state = expectPreface ? State.Preface : State.FirstFrame;
    }

    /// <summary>
    /// The largest payload accepted: this side's SETTINGS_MAX_FRAME_SIZE, 16,384 by default (2^14 to 2^24-1); raise it
    /// only once the peer has acknowledged it. Bounds what one frame can make the caller buffer.
    /// </summary>
    public int MaxFrameSize
    {
        get => _maxFrameSize;
        set => _maxFrameSize = value is >= Http2Settings.MinMaxFrameSize and <= Http2Settings.MaxMaxFrameSize
            ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "SETTINGS_MAX_FRAME_SIZE is 2^14 to 2^24-1.");
    }

    /// <summary>Whether a field block is open, so that only a CONTINUATION on its stream may come next.</summary>
    public bool InFieldBlock => _fieldBlockStream != 0;

    /// <summary>After an error: the code to send (RST_STREAM or GOAWAY).</summary>
    public Http2ErrorCode ErrorCode { get; private set; }

    /// <summary>After a stream error: the stream to reset.</summary>
    public int ErrorStreamId { get; private set; }

    /// <summary>After an error: why, for GOAWAY's debug data and the logs.</summary>
    public string? ErrorReason { get; private set; }

    /// <summary>
    /// Reads the next frame from <paramref name="data"/>. On <see cref="Http2ReadStatus.Frame"/>, and on a
    /// <see cref="Http2ReadStatus.StreamError"/> for a HEADERS frame (whose field block must still be decoded to keep
    /// HPACK in step), <paramref name="frame"/> is the frame.
    /// </summary>
    public Http2ReadStatus Read(ReadOnlySpan<byte> data, out Http2Frame frame, out int consumed)
    {
        frame = default;
        consumed = 0;
        if (_state == State.Failed)
            return Http2ReadStatus.ConnectionError;
        if (_state == State.Preface)
        {
            var matches = Http2Preface.Matches(data);
            if (matches == false)
                return Fail(Http2ErrorCode.ProtocolError, "not the HTTP/2 client preface");
            if (matches == null)
                return Http2ReadStatus.NeedMoreData;
            consumed = Http2Preface.Client.Length;
            _state = State.FirstFrame;
        }
        while (true)
        {
            var rest = data[consumed..];
            if (rest.Length < HeaderLength)
                return Http2ReadStatus.NeedMoreData;
            var length = (rest[0] << 16) | (rest[1] << 8) | rest[2];
            var type = (Http2FrameType)rest[3];
            var flags = rest[4];
            var streamId = (int)(BinaryPrimitives.ReadUInt32BigEndian(rest[5..]) & 0x7fff_ffff);
            if (length > _maxFrameSize)
                return Fail(Http2ErrorCode.FrameSizeError, "a frame larger than SETTINGS_MAX_FRAME_SIZE");
            if (_state == State.FirstFrame && (type != Http2FrameType.Settings || (flags & Http2FrameFlags.Ack) != 0))
                return Fail(Http2ErrorCode.ProtocolError, "the client preface must be followed by SETTINGS");
            if (_fieldBlockStream != 0 && (type != Http2FrameType.Continuation || streamId != _fieldBlockStream))
                return Fail(Http2ErrorCode.ProtocolError, "a field block interrupted before END_HEADERS");
            if (rest.Length < HeaderLength + length)
                return Http2ReadStatus.NeedMoreData;
            consumed += HeaderLength + length;
            if (_state == State.FirstFrame)
                _state = State.Frames;
            var payload = rest.Slice(HeaderLength, length);
            var status = Parse(type, flags, streamId, payload, out frame);
            if (status != null)
                return status.Value;
        }
    }

    // Null for an unknown frame type, which is skipped.
    private Http2ReadStatus? Parse(Http2FrameType type, byte flags, int streamId, ReadOnlySpan<byte> payload, out Http2Frame frame)
    {
        frame = new Http2Frame { Type = type, Flags = flags, StreamId = streamId, Length = payload.Length };
        switch (type)
        {
            case Http2FrameType.Data:
                if (streamId == 0)
                    return Fail(Http2ErrorCode.ProtocolError, "DATA on stream 0");
                if (!TryUnpad(flags, payload, 0, out var data))
                    return Fail(Http2ErrorCode.ProtocolError, "DATA padding as long as the frame or longer");
                frame = frame with { Payload = data };
                return Http2ReadStatus.Frame;
            case Http2FrameType.Headers:
                return ParseHeaders(flags, streamId, payload, ref frame);
            case Http2FrameType.Priority:
                if (streamId == 0)
                    return Fail(Http2ErrorCode.ProtocolError, "PRIORITY on stream 0");
                if (payload.Length != 5)
                    return StreamError(streamId, Http2ErrorCode.FrameSizeError, "PRIORITY of a length other than 5");
                frame = WithPriority(frame, payload);
                return frame.StreamDependency == streamId
                    ? StreamError(streamId, Http2ErrorCode.ProtocolError, "a stream depending on itself")
                    : Http2ReadStatus.Frame;
            case Http2FrameType.RstStream:
                if (streamId == 0)
                    return Fail(Http2ErrorCode.ProtocolError, "RST_STREAM on stream 0");
                if (payload.Length != 4)
                    return Fail(Http2ErrorCode.FrameSizeError, "RST_STREAM of a length other than 4");
                frame = frame with { ErrorCode = (Http2ErrorCode)BinaryPrimitives.ReadUInt32BigEndian(payload) };
                return Http2ReadStatus.Frame;
            case Http2FrameType.Settings:
                return ParseSettings(flags, streamId, payload, ref frame);
            case Http2FrameType.PushPromise:
                return Fail(Http2ErrorCode.ProtocolError, "PUSH_PROMISE sent to a server");
            case Http2FrameType.Ping:
                if (streamId != 0)
                    return Fail(Http2ErrorCode.ProtocolError, "PING on a stream");
                if (payload.Length != 8)
                    return Fail(Http2ErrorCode.FrameSizeError, "PING of a length other than 8");
                frame = frame with { Payload = payload };
                return Http2ReadStatus.Frame;
            case Http2FrameType.GoAway:
                if (streamId != 0)
                    return Fail(Http2ErrorCode.ProtocolError, "GOAWAY on a stream");
                if (payload.Length < 8)
                    return Fail(Http2ErrorCode.FrameSizeError, "GOAWAY shorter than 8");
                frame = frame with
                {
                    LastStreamId = (int)(BinaryPrimitives.ReadUInt32BigEndian(payload) & 0x7fff_ffff),
                    ErrorCode = (Http2ErrorCode)BinaryPrimitives.ReadUInt32BigEndian(payload[4..]),
                    Payload = payload[8..],
                };
                return Http2ReadStatus.Frame;
            case Http2FrameType.WindowUpdate:
                if (payload.Length != 4)
                    return Fail(Http2ErrorCode.FrameSizeError, "WINDOW_UPDATE of a length other than 4");
                var increment = (int)(BinaryPrimitives.ReadUInt32BigEndian(payload) & 0x7fff_ffff);
                if (increment == 0)
                {
                    return streamId == 0
                        ? Fail(Http2ErrorCode.ProtocolError, "a WINDOW_UPDATE of 0 for the connection")
                        : StreamError(streamId, Http2ErrorCode.ProtocolError, "a WINDOW_UPDATE of 0");
                }
                frame = frame with { WindowIncrement = increment };
                return Http2ReadStatus.Frame;
            case Http2FrameType.Continuation:
                if (streamId == 0)
                    return Fail(Http2ErrorCode.ProtocolError, "CONTINUATION on stream 0");
                if (_fieldBlockStream == 0)
                    return Fail(Http2ErrorCode.ProtocolError, "CONTINUATION without an open field block");
                if ((flags & Http2FrameFlags.EndHeaders) != 0)
                    _fieldBlockStream = 0;
                frame = frame with { Payload = payload };
                return Http2ReadStatus.Frame;
            default:
                return null;
        }
    }

    private Http2ReadStatus ParseHeaders(byte flags, int streamId, ReadOnlySpan<byte> payload, ref Http2Frame frame)
    {
        if (streamId == 0)
            return Fail(Http2ErrorCode.ProtocolError, "HEADERS on stream 0");
        var priorityAt = (flags & Http2FrameFlags.Padded) != 0 ? 1 : 0;
        var afterPriority = priorityAt + ((flags & Http2FrameFlags.Priority) != 0 ? 5 : 0);
        if (payload.Length < afterPriority)
            return Fail(Http2ErrorCode.FrameSizeError, "HEADERS too short for its pad length and priority fields");
        if (!TryUnpad(flags, payload, afterPriority - priorityAt, out var fragment))
            return Fail(Http2ErrorCode.ProtocolError, "HEADERS padding longer than what remains");
        if ((flags & Http2FrameFlags.Priority) != 0)
            frame = WithPriority(frame, payload.Slice(priorityAt, 5));
        frame = frame with { Payload = fragment };
        if ((flags & Http2FrameFlags.EndHeaders) == 0)
            _fieldBlockStream = streamId;
        return (flags & Http2FrameFlags.Priority) != 0 && frame.StreamDependency == streamId
            ? StreamError(streamId, Http2ErrorCode.ProtocolError, "a stream depending on itself")
            : Http2ReadStatus.Frame;
    }

    private Http2ReadStatus ParseSettings(byte flags, int streamId, ReadOnlySpan<byte> payload, ref Http2Frame frame)
    {
        if (streamId != 0)
            return Fail(Http2ErrorCode.ProtocolError, "SETTINGS on a stream");
        if ((flags & Http2FrameFlags.Ack) != 0 && payload.Length != 0)
            return Fail(Http2ErrorCode.FrameSizeError, "a SETTINGS acknowledgement with a payload");
        if (payload.Length % 6 != 0)
            return Fail(Http2ErrorCode.FrameSizeError, "SETTINGS of a length that is not a multiple of 6");
        var code = Http2Settings.Validate(payload, out var reason);
        if (code != Http2ErrorCode.NoError)
            return Fail(code, reason!);
        frame = frame with { Payload = payload };
        return Http2ReadStatus.Frame;
    }

    // The payload without its pad length byte, the `skip` bytes after it, and the padding; false when the padding does
    // not fit (§6.1, §6.2). A PADDED frame too short for its pad length byte does not fit either.
    private static bool TryUnpad(byte flags, ReadOnlySpan<byte> payload, int skip, out ReadOnlySpan<byte> content)
    {
        if ((flags & Http2FrameFlags.Padded) == 0)
        {
            content = payload[skip..];
            return true;
        }
        content = default;
        if (payload.Length < 1)
            return false;
        var start = 1 + skip;
        var padding = payload[0];
        if (padding > payload.Length - start)
            return false;
        content = payload[start..^padding];
        return true;
    }

    private static Http2Frame WithPriority(Http2Frame frame, ReadOnlySpan<byte> fields)
    {
        var dependency = BinaryPrimitives.ReadUInt32BigEndian(fields);
        return frame with { Exclusive = (dependency & 0x8000_0000) != 0, StreamDependency = (int)(dependency & 0x7fff_ffff), Weight = fields[4] + 1 };
    }

    private Http2ReadStatus StreamError(int streamId, Http2ErrorCode code, string reason)
    {
        ErrorCode = code;
        ErrorStreamId = streamId;
        ErrorReason = reason;
        return Http2ReadStatus.StreamError;
    }

    private Http2ReadStatus Fail(Http2ErrorCode code, string reason)
    {
        _state = State.Failed;
        ErrorCode = code;
        ErrorStreamId = 0;
        ErrorReason = reason;
        return Http2ReadStatus.ConnectionError;
    }
}
