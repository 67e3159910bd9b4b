using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>The uds multicast server, on the socket file of <c>--path</c>.</summary>
internal sealed class UdsMulticastServerFactory : IBenchmarkServerFactory<MulticastServerOptions>
{
    public IBenchmarkServer Create(MulticastServerOptions options) => new MulticastUdsServer(options.ResolvedPath, options.Messages, options.Size);
}
