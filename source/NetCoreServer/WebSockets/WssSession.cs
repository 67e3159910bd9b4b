using System;
using NetCoreServer.Http;
using NetCoreServer.WebSockets;

namespace NetCoreServer;

/// <summary>
/// <see cref="WsSession"/> over TLS: a connection of a <see cref="WssServer"/>, upgraded after the TLS handshake
/// (OnHandshaking and OnHandshaked follow OnConnected). Everything WebSocket is the framer <see cref="WsSession"/> uses.
/// </summary>
public partial class WssSession : HttpsSession, IWebSocket, IWsConnectionHost, IWsServerSession
{
    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public WssSession(WssServer server)
        : base(server) => _wsOptions = server.Ws;
}
