using System;
using System.Net;
using NetCoreServer.WebSockets;

namespace NetCoreServer;

/// <summary>
/// A WebSocket client over TCP: <see cref="ConnectAsync"/> (or the blocking <see cref="Connect"/>) connects and
/// upgrades; override <see cref="OnWsConnected(HttpResponse)"/> and <see cref="OnWsReceived"/>, send with
/// <see cref="SendTextAsync(ReadOnlySpan{byte})"/> and its siblings (frames are masked with a fresh random key each),
/// and end with <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>. Hook order: OnConnecting, OnConnected,
/// OnWsConnecting, (upgrade) OnWsConnected, OnWsReceived/OnWsPing/OnWsPong/OnWsClose, OnWsDisconnecting,
/// OnDisconnecting, OnWsDisconnected, OnDisconnected. The framer is the one the server sessions use; this class only
/// says it runs over TCP.
/// </summary>
public partial class WsClient : HttpClient, IWebSocket, IWsConnectionHost, IWsUpgradeClient
{
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public WsClient(IPAddress address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public WsClient(string address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public WsClient(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public WsClient(IPEndPoint endpoint)
        : base(endpoint)
    {
    }
}
