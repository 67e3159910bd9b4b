using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>The tcp multicast server.</summary>
internal sealed class TcpMulticastServerFactory : IBenchmarkServerFactory<MulticastServerOptions>
{
    public IBenchmarkServer Create(MulticastServerOptions options) => new MulticastTcpServer(options.Address, options.ResolvedPort, options.Messages, options.Size);
}
