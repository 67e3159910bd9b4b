using System.Net;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.RawEchoServer;

/// <summary>The raw-socket tcp echo server.</summary>
internal sealed class RawTcpEchoServerFactory : IBenchmarkServerFactory<ServerOptions>
{
    public IBenchmarkServer Create(ServerOptions options) => new RawTcpEchoServer(new IPEndPoint(IPAddress.Parse(options.Address), options.ResolvedPort));
}
