using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>The uds echo server, on the socket file of <c>--path</c>.</summary>
internal sealed class UdsEchoServerFactory : IBenchmarkServerFactory<ServerOptions>
{
    public IBenchmarkServer Create(ServerOptions options) => new EchoUdsServer(options.ResolvedPath);
}
