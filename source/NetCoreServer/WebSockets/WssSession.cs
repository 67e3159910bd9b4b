using System;
using NetCoreServer.Http;
using NetCoreServer.WebSockets;

namespace NetCoreServer;

/// <summary>
/// One connection of a <see cref="WssServer"/> (WebSocket over TLS): after the TLS handshake, HTTP until a client asks
/// to upgrade, then WebSocket on the same connection. Override the OnWs hooks and send with
/// <see cref="SendTextAsync(ReadOnlySpan{byte})"/> and its siblings; the hook order is <see cref="WsSession"/>'s with
/// OnHandshaking/OnHandshaked after OnConnected. The framer is the one <see cref="WsSession"/> uses; this class only
/// says it runs over TLS.
/// </summary>
public partial class WssSession : HttpsSession, IWebSocket, IWsConnectionHost, IWsServerSession
{
    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public WssSession(WssServer server)
        : base(server) => _wsOptions = server.Ws;
}
