using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// <see cref="WsSession"/> over TLS: a connection of a <see cref="WssServer"/>, upgraded after the TLS handshake
/// (OnHandshaking and OnHandshaked follow OnConnected). Everything WebSocket is the framer <see cref="WsSession"/> uses.
/// </summary>
[TwinOf(typeof(WsSession))]
public partial class WssSession : HttpsSession
{
    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public WssSession(WssServer server)
        : base(server) => _ws = new WsServerPeer(this);
}
