using System;
using System.Net;

namespace NetCoreServer;

/// <summary>
/// A secure WebSocket server (WebSocket over TLS with <see cref="SslServer.Context"/>; also an HTTPS server: static content and ordinary requests keep working). Every
/// connection is a <see cref="WssSession"/> (override <see cref="CreateSession"/> for your subclass). Send to all
/// clients with <see cref="MulticastText(ReadOnlySpan{byte})"/>, close them all with <see cref="CloseAll(int, ReadOnlySpan{byte})"/>;
/// settings are in <see cref="Ws"/> and, for the HTTP part, <see cref="HttpsServer.Http"/>.
/// </summary>
public partial class WssServer : HttpsServer, IWebSocket
{
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public WssServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public WssServer(SslContext context, string address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WssServer(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WssServer(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="WssSession"/>.</returns>
    protected override SslSession CreateSession() => new WssSession(this);
}
