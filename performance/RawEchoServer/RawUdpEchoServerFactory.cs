using System.Net;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.RawEchoServer;

/// <summary>The raw-socket udp echo server.</summary>
internal sealed class RawUdpEchoServerFactory : IBenchmarkServerFactory<ServerOptions>
{
    public IBenchmarkServer Create(ServerOptions options) => new RawUdpEchoServer(new IPEndPoint(IPAddress.Parse(options.Address), options.ResolvedPort));
}
