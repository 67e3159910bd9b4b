using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// A secure WebSocket server (WebSocket over TLS with <see cref="SslServer.Context"/>; also an HTTPS server: static content and ordinary requests keep working). Every
/// connection is a <see cref="WssSession"/> (override <see cref="CreateSession"/> for your subclass). Send to all
/// clients with <see cref="MulticastText(ReadOnlySpan{byte})"/>, close them all with <see cref="CloseAll(int, ReadOnlySpan{byte})"/>;
/// settings are in <see cref="Ws"/> and, for the HTTP part, <see cref="HttpsServer.Http"/>.
/// </summary>
[TwinOf(typeof(WsServer))]
public partial class WssServer : HttpsServer
{
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public WssServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
        => _ws = new WsMulticaster(this);

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public WssServer(SslContext context, string address, int port)
        : base(context, address, port)
        => _ws = new WsMulticaster(this);

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WssServer(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsMulticaster(this);

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WssServer(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsMulticaster(this);

    /// <summary>
    /// Creates a server listening on a Unix domain socket file, TLS over it; the file is handled as
    /// <see cref="UdsServer"/> handles it (see <see cref="HttpServer(UnixDomainSocketEndPoint)"/>).
    /// </summary>
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <param name="endpoint">The socket file to listen on.</param>
    public WssServer(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsMulticaster(this);
}
