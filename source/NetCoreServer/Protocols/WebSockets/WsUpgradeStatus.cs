namespace NetCoreServer.Protocols.WebSockets;

/// <summary>How <see cref="WsServerHandshake.Validate"/> classified a request.</summary>
internal enum WsUpgradeStatus
{
    /// <summary>No sign of WebSocket (no <c>Upgrade: websocket</c>, no Sec-WebSocket-Key or -Version): an ordinary HTTP request.</summary>
    NotWebSocket,

    /// <summary>A valid upgrade: answer with <see cref="WsServerHandshake.Accept"/>.</summary>
    Valid,

    /// <summary>An upgrade attempt that breaks RFC 6455 §4.2.1: answer with <see cref="WsServerHandshake.Reject"/> (400, or 426 for the version).</summary>
    Invalid,
}
