using System.Net;
using NetCoreServer.Connections;

namespace NetCoreServer;

/// <summary>
/// TCP server over IPv4, IPv6 or both (<see cref="StreamServer.OptionDualMode"/>). Override
/// <see cref="CreateSession"/> to return your <see cref="TcpSession"/> subclass; the rest is in
/// <see cref="StreamServer{TSession}"/>. Its HTTP and WebSocket subclasses can also listen on a socket file
/// (<see cref="HttpServer(System.Net.Sockets.UnixDomainSocketEndPoint)"/>); the TCP options are then not applied.
/// </summary>
public class TcpServer : StreamServer<TcpSession>
{
    /// <summary>Creates a server for an IP address and port (0 picks a free port; see <see cref="StreamServer{TSession}.Endpoint"/> after Start).</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public TcpServer(IPAddress address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public TcpServer(string address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a server for a host name endpoint (resolved when the server starts).</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public TcpServer(DnsEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public TcpServer(IPEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a server for any endpoint; the HTTP servers reach the socket-file form through it.</summary>
    /// <param name="target">The endpoint, and the address and port as given by the user.</param>
    private protected TcpServer(EndpointSpec target)
        : base(target)
    {
    }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="TcpSession"/>.</returns>
    protected override TcpSession CreateSession() => new(this);
}
