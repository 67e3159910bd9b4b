namespace NetCoreServer.Protocols.Http2;

/// <summary>The error codes of RFC 9113 §7, carried by RST_STREAM and GOAWAY.</summary>
internal enum Http2ErrorCode : uint
{
    /// <summary>Not an error: a graceful GOAWAY.</summary>
    NoError = 0x0,

    /// <summary>The peer broke the protocol.</summary>
    ProtocolError = 0x1,

    /// <summary>This side failed.</summary>
    InternalError = 0x2,

    /// <summary>The peer broke flow control (sent past a window, or a window passed 2^31-1).</summary>
    FlowControlError = 0x3,

    /// <summary>SETTINGS were not acknowledged in time.</summary>
    SettingsTimeout = 0x4,

    /// <summary>A frame arrived for a stream that was already half-closed.</summary>
    StreamClosed = 0x5,

    /// <summary>A frame had the wrong size.</summary>
    FrameSizeError = 0x6,

    /// <summary>The stream was refused before any processing (safe to retry).</summary>
    RefusedStream = 0x7,

    /// <summary>The stream is no longer needed.</summary>
    Cancel = 0x8,

    /// <summary>The field block could not be decoded: the HPACK state is lost.</summary>
    CompressionError = 0x9,

    /// <summary>A CONNECT tunnel failed.</summary>
    ConnectError = 0xa,

    /// <summary>The peer is generating excessive load.</summary>
    EnhanceYourCalm = 0xb,

    /// <summary>The transport's security is too weak (§9.2).</summary>
    InadequateSecurity = 0xc,

    /// <summary>The request must be made over HTTP/1.1.</summary>
    Http11Required = 0xd,
}
