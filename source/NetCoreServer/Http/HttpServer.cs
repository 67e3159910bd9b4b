using System;
using System.Net;

namespace NetCoreServer;

/// <summary>
/// An HTTP/1.1 server over TCP: every accepted connection is an <see cref="HttpSession"/> (override
/// <see cref="CreateSession"/> to return your subclass). Serves static content from <see cref="Cache"/> and holds the
/// limits and timeouts of its sessions in <see cref="Http"/>.
/// </summary>
public partial class HttpServer : TcpServer
{
    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public HttpServer(IPAddress address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public HttpServer(string address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpServer(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpServer(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="HttpSession"/>.</returns>
    protected override TcpSession CreateSession() => new HttpSession(this);
}
