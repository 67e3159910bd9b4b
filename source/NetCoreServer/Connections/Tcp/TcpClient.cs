using System.Net;
using NetCoreServer.Connections;

namespace NetCoreServer;

/// <summary>
/// TCP client over IPv4 or IPv6, by address or host name. Subclass it and override the hooks; connecting lives in
/// <see cref="StreamClient"/>, the TCP options in <see cref="IpStreamClient"/>, sending and receiving in
/// <see cref="StreamConnection"/>. An <see cref="SslClient"/> is not a TcpClient, as in NetCoreServer.
/// </summary>
public class TcpClient : IpStreamClient
{
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public TcpClient(IPAddress address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public TcpClient(string address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a client for a host name endpoint; every address the name resolves to is tried.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public TcpClient(DnsEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public TcpClient(IPEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a client for any endpoint; the HTTP clients reach the socket-file form through it.</summary>
    /// <param name="target">Server endpoint, address and port as given by the user.</param>
    private protected TcpClient(EndpointSpec target)
        : base(target)
    {
    }
}
