using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>The udp echo server.</summary>
internal sealed class UdpEchoServerFactory : IBenchmarkServerFactory<ServerOptions>
{
    public IBenchmarkServer Create(ServerOptions options) => new EchoUdpServer(options.Address, options.ResolvedPort);
}
