using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Multicast benchmark client: <c>-c</c> clients receive from a multicast server (tcp, ssl, uds, or a udp group joined on the loopback interface) for <c>-z</c> seconds;
/// messages are counted as received bytes divided by the message size <c>-s</c>, which must match the server's.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<IBenchmarkClientFactory<MulticastClientOptions>> s_protocols = new ProtocolCatalog<IBenchmarkClientFactory<MulticastClientOptions>>()
        .Add("tcp", new TcpMulticastClientFactory())
        .Add("ssl", new SslMulticastClientFactory())
        .Add("uds", new UdsMulticastClientFactory())
        .Add("udp", new UdpMulticastClientFactory());

    private static Task<int> Main(string[] args) => ClientHost.RunAsync(args, s_protocols, Protocols.DefaultSocketPath("multicast"));
}
