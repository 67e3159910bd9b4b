using System.Net;
using System.Net.Sockets;
using NetCoreServer.Connections;

namespace NetCoreServer;

/// <summary>
/// An HTTPS server (HTTP/1.1 over TLS with <see cref="SslServer.Context"/>, and HTTP/2 when the context's
/// <see cref="SslContext.ApplicationProtocols"/> offers h2 by ALPN): every accepted connection is an <see cref="HttpsSession"/> (override
/// <see cref="CreateSession"/> to return your subclass). Serves static content from <see cref="Cache"/> and holds the
/// limits and timeouts of its sessions in <see cref="Http"/>.
/// </summary>
[TwinOf(typeof(HttpServer))]
public partial class HttpsServer : SslServer
{
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public HttpsServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public HttpsServer(SslContext context, string address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpsServer(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpsServer(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <summary>
    /// Creates a server listening on a Unix domain socket file, TLS over it; the file is handled as
    /// <see cref="UdsServer"/> handles it (see <see cref="HttpServer(UnixDomainSocketEndPoint)"/>).
    /// </summary>
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <param name="endpoint">The socket file to listen on.</param>
    public HttpsServer(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(context, EndpointSpec.Of(endpoint))
    {
    }
}
