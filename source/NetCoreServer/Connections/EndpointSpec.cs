using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Connections;

/// <summary>
/// What a server or client constructor was given, in the one place that maps NetCoreServer's constructor forms
/// (address and port, address string or host name and port, <see cref="DnsEndPoint"/>, <see cref="IPEndPoint"/>, a
/// socket file) to the endpoint plus the <c>Address</c> and <c>Port</c> reported as the user wrote them.
/// </summary>
internal readonly record struct EndpointSpec(EndPoint Endpoint, string Address, int Port)
{
    public static EndpointSpec Of(IPAddress address, int port) => new(new IPEndPoint(address, port), address.ToString(), port);

    /// <summary>An IP literal becomes an <see cref="IPEndPoint"/>; anything else is a host name, resolved when the socket opens.</summary>
    public static EndpointSpec Of(string address, int port)
        => new(IPAddress.TryParse(address, out var ip) ? new IPEndPoint(ip, port) : new DnsEndPoint(address, port), address, port);

    public static EndpointSpec Of(DnsEndPoint endpoint) => new(endpoint, endpoint.Host, endpoint.Port);

    public static EndpointSpec Of(IPEndPoint endpoint) => new(endpoint, endpoint.Address.ToString(), endpoint.Port);

    public static EndpointSpec Of(UnixDomainSocketEndPoint endpoint) => new(endpoint, endpoint.ToString(), 0);
}
