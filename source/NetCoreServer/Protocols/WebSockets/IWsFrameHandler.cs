using System;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Receives what <see cref="WsFrameDecoder.Receive"/> decodes, on the caller's thread (the receive loop), one call at
/// a time. Each payload is a view of the decoder's buffer, valid only during the call.
/// </summary>
internal interface IWsFrameHandler
{
    /// <summary>
    /// A whole message; <paramref name="opcode"/> is <see cref="WsOpcode.Text"/> (valid UTF-8) or <see cref="WsOpcode.Binary"/>.
    /// Returns true to go on decoding, false to stop after this message (the rest stays unconsumed, for the next call).
    /// </summary>
    bool OnWsMessage(WsOpcode opcode, ArraySegment<byte> payload);

    /// <summary>A ping: RFC 6455 §5.5.2 asks for a pong with the same payload.</summary>
    void OnWsPing(ArraySegment<byte> payload);

    void OnWsPong(ArraySegment<byte> payload);

    /// <summary>The peer's close frame: its status (1005 when it sent none) and UTF-8 reason. Answer with a close and end the connection.</summary>
    void OnWsClose(int status, ArraySegment<byte> reason);

    /// <summary>The peer broke the protocol: close with <paramref name="status"/> (1002, 1007, 1009) and end the connection.</summary>
    void OnWsFailure(int status, string reason);
}
