using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.RawEchoServer;

/// <summary>
/// Baseline echo server written directly on <see cref="System.Net.Sockets.Socket"/>: what the echo benchmark
/// achieves with no library at all, to compare the library's echo server against.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<IBenchmarkServerFactory<ServerOptions>> s_protocols = new ProtocolCatalog<IBenchmarkServerFactory<ServerOptions>>()
        .Add("tcp", new RawTcpEchoServerFactory())
        .Add("udp", new RawUdpEchoServerFactory());

    private static Task<int> Main(string[] args) => ServerHost.RunAsync(args, "Raw echo server", s_protocols, Protocols.DefaultSocketPath("echo"));
}
