namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a WebSocket server needs of its sessions (<see cref="WsSession"/>, <see cref="WssSession"/>) for multicast and CloseAll.</summary>
internal interface IWsServerSession
{
    /// <summary>The framer once the session has upgraded (and its 101 is queued); null before.</summary>
    WsConnection? Framer { get; }
}
