namespace NetCoreServer.Protocols.Http2;

/// <summary>The frame flags of RFC 9113 §6; what a bit means depends on the frame type.</summary>
internal static class Http2FrameFlags
{
    /// <summary>DATA, HEADERS: the last frame the sender sends on this stream.</summary>
    public const byte EndStream = 0x1;

    /// <summary>SETTINGS, PING: an acknowledgement.</summary>
    public const byte Ack = 0x1;

    /// <summary>HEADERS, PUSH_PROMISE, CONTINUATION: the field block ends in this frame.</summary>
    public const byte EndHeaders = 0x4;

    /// <summary>DATA, HEADERS, PUSH_PROMISE: a pad length byte leads the payload and padding ends it.</summary>
    public const byte Padded = 0x8;

    /// <summary>HEADERS: the exclusive bit, stream dependency and weight follow (deprecated, read and ignored).</summary>
    public const byte Priority = 0x20;
}
