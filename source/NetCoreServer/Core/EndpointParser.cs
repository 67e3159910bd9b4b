using System.Net;

namespace NetCoreServer.Core;

/// <summary>Turns the (string, int) constructor arguments into an endpoint: an IP literal or a host name.</summary>
internal static class EndpointParser
{
    public static EndPoint Parse(string address, int port)
        => IPAddress.TryParse(address, out var ip) ? new IPEndPoint(ip, port) : new DnsEndPoint(address, port);
}
