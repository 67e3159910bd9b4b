using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// A secure WebSocket client (WebSocket over TLS with <see cref="SslClient.Context"/>): <see cref="ConnectAsync"/> (or the blocking <see cref="Connect"/>) connects and
/// upgrades; override <see cref="OnWsConnected(HttpResponse)"/> and <see cref="OnWsReceived"/>, send with
/// <see cref="SendTextAsync(ReadOnlySpan{byte})"/> and its siblings (frames are masked with a fresh random key each),
/// and end with <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>. Hook order: OnConnecting, OnConnected, OnHandshaking, OnHandshaked,
/// OnWsConnecting, (upgrade) OnWsConnected, OnWsReceived/OnWsPing/OnWsPong/OnWsClose, OnWsDisconnecting,
/// OnDisconnecting, OnWsDisconnected, OnDisconnected.
/// </summary>
[TwinOf(typeof(WsClient))]
public partial class WssClient : HttpsClient
{
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public WssClient(SslContext context, IPAddress address, int port)
        : base(context, address, port)
        => _ws = new WsClientPeer(this);

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public WssClient(SslContext context, string address, int port)
        : base(context, address, port)
        => _ws = new WsClientPeer(this);

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public WssClient(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsClientPeer(this);

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public WssClient(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsClientPeer(this);

    /// <summary>Creates a client for a server's Unix domain socket file; the upgrade request carries <c>Host: localhost</c> and TLS checks the name <c>localhost</c>.</summary>
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <param name="endpoint">The server's socket file.</param>
    public WssClient(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsClientPeer(this);
}
