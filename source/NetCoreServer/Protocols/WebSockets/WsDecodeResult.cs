namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a call to <see cref="WsFrameDecoder.Read"/> found.</summary>
internal enum WsDecodeResult
{
    /// <summary>Everything usable was consumed: call again with more data (the unconsumed bytes first).</summary>
    NeedMoreData,

    /// <summary>A whole text or binary message: <see cref="WsFrameDecoder.Opcode"/> and <see cref="WsFrameDecoder.Payload"/>.</summary>
    Message,

    /// <summary>A ping; <see cref="WsFrameDecoder.Payload"/> is what the pong must echo.</summary>
    Ping,

    /// <summary>A pong; <see cref="WsFrameDecoder.Payload"/> is its payload.</summary>
    Pong,

    /// <summary>
    /// A valid close frame: <see cref="WsFrameDecoder.CloseStatus"/> (1005 when it carried none) and the UTF-8 reason
    /// in <see cref="WsFrameDecoder.Payload"/>. Nothing after it is read (RFC 6455 §5.5.1).
    /// </summary>
    Close,

    /// <summary>
    /// The peer broke the protocol: <see cref="WsFrameDecoder.ErrorStatus"/> (1002, 1007 or 1009) is the status to close
    /// with, <see cref="WsFrameDecoder.ErrorReason"/> says why. The decoder stays failed.
    /// </summary>
    Error,
}
