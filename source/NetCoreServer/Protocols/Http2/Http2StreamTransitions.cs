namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The stream state machine of RFC 9113 §5.1 for a server, as pure functions: what a frame received or sent does to
/// a stream's state, and which error a frame the state does not allow calls for. Frames on stream 0, and the
/// stream-independent checks, are the frame reader's; the rules for new stream identifiers (§5.1.1) are
/// <see cref="ClassifyNewStream"/>'s.
/// </summary>
internal static class Http2StreamTransitions
{
    /// <summary>
    /// A frame of <paramref name="type"/> arrived on a stream in <paramref name="state"/>. Returns the new state, and in
    /// <paramref name="error"/> NoError or the error to raise, on the stream or (when <paramref name="connectionError"/>)
    /// on the connection. An error leaves the state as it was, apart from the stream reset it leads to.
    /// </summary>
    public static Http2StreamState Received(Http2StreamState state, Http2FrameType type, bool endStream, out Http2ErrorCode error, out bool connectionError)
    {
        error = Http2ErrorCode.NoError;
        connectionError = false;
        // PRIORITY is allowed in every state (§5.1); unknown types never reach here.
        if (type == Http2FrameType.Priority)
            return state;
        switch (state)
        {
            case Http2StreamState.Idle:
                if (type == Http2FrameType.Headers)
                    return endStream ? Http2StreamState.HalfClosedRemote : Http2StreamState.Open;
                break;
            case Http2StreamState.Open or Http2StreamState.HalfClosedLocal:
                if (type == Http2FrameType.RstStream)
                    return Http2StreamState.Closed;
                if (type == Http2FrameType.Headers && !endStream)
                {
                    // A second HEADERS is a trailer section, which must end the stream (§8.1).
                    error = Http2ErrorCode.ProtocolError;
                    return state;
                }
                if (type is Http2FrameType.Data or Http2FrameType.Headers && endStream)
                    return state == Http2StreamState.Open ? Http2StreamState.HalfClosedRemote : Http2StreamState.Closed;
                return state;
            case Http2StreamState.HalfClosedRemote:
                if (type == Http2FrameType.RstStream)
                    return Http2StreamState.Closed;
                if (type == Http2FrameType.WindowUpdate)
                    return state;
                error = Http2ErrorCode.StreamClosed;
                return state;
            case Http2StreamState.Closed:
                // WINDOW_UPDATE and RST_STREAM may still be in flight after this side ended or reset the stream (§5.1).
                if (type is Http2FrameType.WindowUpdate or Http2FrameType.RstStream)
                    return state;
                error = Http2ErrorCode.StreamClosed;
                return state;
        }
        // §5.1 idle: anything but HEADERS and PRIORITY.
        error = Http2ErrorCode.ProtocolError;
        connectionError = true;
        return state;
    }

    /// <summary>This side sent HEADERS or DATA (with or without END_STREAM) or RST_STREAM on a stream.</summary>
    public static Http2StreamState Sent(Http2StreamState state, Http2FrameType type, bool endStream)
    {
        if (type == Http2FrameType.RstStream)
            return Http2StreamState.Closed;
        if (!endStream || type is not (Http2FrameType.Data or Http2FrameType.Headers))
            return state;
        return state switch
        {
            Http2StreamState.Open => Http2StreamState.HalfClosedLocal,
            Http2StreamState.HalfClosedRemote => Http2StreamState.Closed,
            _ => state,
        };
    }

    /// <summary>
    /// A frame arrived on a stream the connection does not track. With <paramref name="highestOpened"/> the largest
    /// client stream opened so far: an even identifier is a connection PROTOCOL_ERROR (clients open odd streams,
    /// §5.1.1); one not above <paramref name="highestOpened"/> was used or skipped and is closed; one above it is idle.
    /// </summary>
    public static Http2StreamState ClassifyNewStream(int streamId, int highestOpened, out bool evenIdentifier)
    {
        evenIdentifier = (streamId & 1) == 0;
        return streamId <= highestOpened ? Http2StreamState.Closed : Http2StreamState.Idle;
    }
}
