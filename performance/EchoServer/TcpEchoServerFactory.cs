using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>The tcp echo server.</summary>
internal sealed class TcpEchoServerFactory : IBenchmarkServerFactory<ServerOptions>
{
    public IBenchmarkServer Create(ServerOptions options) => new EchoTcpServer(options.Address, options.ResolvedPort);
}
