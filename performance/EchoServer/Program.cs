using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>Echo benchmark server: sends every received chunk back to its sender, over tcp, ssl or uds (<c>--protocol</c>), or every datagram to its sender over udp.</summary>
internal static class Program
{
    private static readonly ProtocolCatalog<IBenchmarkServerFactory<ServerOptions>> s_protocols = new ProtocolCatalog<IBenchmarkServerFactory<ServerOptions>>()
        .Add("tcp", new TcpEchoServerFactory())
        .Add("ssl", new SslEchoServerFactory())
        .Add("uds", new UdsEchoServerFactory())
        .Add("udp", new UdpEchoServerFactory());

    private static Task<int> Main(string[] args) => ServerHost.RunAsync(args, "Echo server", s_protocols, Protocols.DefaultSocketPath("echo"));
}
