using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// Echo benchmark client: each of <c>-c</c> clients keeps <c>-m</c> messages of <c>-s</c> bytes in flight against an
/// echo server (tcp, ssl, uds or udp) for <c>-z</c> seconds; messages are counted as received bytes divided by the message size.
/// Over udp each message is one datagram; see <see cref="EchoUdpClient"/> for how lost ones are replaced and counted.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<IBenchmarkClientFactory<EchoClientOptions>> s_protocols = new ProtocolCatalog<IBenchmarkClientFactory<EchoClientOptions>>()
        .Add("tcp", new TcpEchoClientFactory())
        .Add("ssl", new SslEchoClientFactory())
        .Add("uds", new UdsEchoClientFactory())
        .Add("udp", new UdpEchoClientFactory());

    private static Task<int> Main(string[] args) => ClientHost.RunAsync(args, s_protocols, Protocols.DefaultSocketPath("echo"));
}
