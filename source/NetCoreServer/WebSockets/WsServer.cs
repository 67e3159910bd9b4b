using System;
using System.Net;

namespace NetCoreServer;

/// <summary>
/// A WebSocket server over TCP (also an HTTP server: static content and ordinary requests keep working). Every
/// connection is a <see cref="WsSession"/> (override <see cref="CreateSession"/> for your subclass). Send to all
/// clients with <see cref="MulticastText(ReadOnlySpan{byte})"/>, close them all with <see cref="CloseAll(int, ReadOnlySpan{byte})"/>;
/// settings are in <see cref="Ws"/> and, for the HTTP part, <see cref="HttpServer.Http"/>.
/// </summary>
public partial class WsServer : HttpServer, IWebSocket
{
    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public WsServer(IPAddress address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public WsServer(string address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WsServer(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WsServer(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="WsSession"/>.</returns>
    protected override TcpSession CreateSession() => new WsSession(this);
}
