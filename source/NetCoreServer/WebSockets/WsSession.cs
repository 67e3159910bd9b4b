using System;
using NetCoreServer.Http;
using NetCoreServer.WebSockets;

namespace NetCoreServer;

/// <summary>
/// One connection of a <see cref="WsServer"/> (TCP): HTTP until a client asks to upgrade, then WebSocket on the same
/// connection. Override the OnWs hooks (<see cref="OnWsConnected(HttpRequest)"/>, <see cref="OnWsReceived"/>, ...) and
/// send with <see cref="SendTextAsync(ReadOnlySpan{byte})"/> and its siblings. Hook order: OnConnecting, OnConnected,
/// OnReceivedRequestHeader, OnWsConnecting, (101 sent) OnWsConnected, OnWsReceived/OnWsPing/OnWsPong/OnWsClose,
/// OnWsDisconnecting, OnDisconnecting, OnWsDisconnected, OnDisconnected. The WebSocket protocol is one framer shared
/// with <see cref="WssSession"/> and the clients; this class only says it runs over TCP.
/// </summary>
public partial class WsSession : HttpSession, IWebSocket, IWsConnectionHost, IWsServerSession
{
    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public WsSession(WsServer server)
        : base(server) => _wsOptions = server.Ws;
}
