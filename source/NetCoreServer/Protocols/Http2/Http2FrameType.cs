namespace NetCoreServer.Protocols.Http2;

/// <summary>The frame types of RFC 9113 §6 (an unknown type is skipped, §5.5).</summary>
internal enum Http2FrameType : byte
{
    /// <summary>Request or response body bytes (§6.1).</summary>
    Data = 0x0,

    /// <summary>Opens a stream and carries a field block fragment (§6.2).</summary>
    Headers = 0x1,

    /// <summary>Deprecated priority signal, read and ignored (§6.3).</summary>
    Priority = 0x2,

    /// <summary>Ends a stream at once, with an error code (§6.4).</summary>
    RstStream = 0x3,

    /// <summary>Connection parameters, or the acknowledgement of them (§6.5).</summary>
    Settings = 0x4,

    /// <summary>Server push; a server never receives one legitimately (§6.6, §8.4).</summary>
    PushPromise = 0x5,

    /// <summary>A round trip measure and liveness check (§6.7).</summary>
    Ping = 0x6,

    /// <summary>The connection is shutting down (§6.8).</summary>
    GoAway = 0x7,

    /// <summary>Flow-control credit, for a stream or the connection (§6.9).</summary>
    WindowUpdate = 0x8,

    /// <summary>The rest of a field block (§6.10).</summary>
    Continuation = 0x9,
}
