using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Multicast benchmark client: <c>-c</c> clients receive from a multicast server (tcp, ssl or uds) for <c>-z</c> seconds;
/// messages are counted as received bytes divided by the message size <c>-s</c>, which must match the server's.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<IBenchmarkClientFactory<ClientOptions>> s_protocols = new ProtocolCatalog<IBenchmarkClientFactory<ClientOptions>>()
        .Add("tcp", new TcpMulticastClientFactory())
        .Add("ssl", new SslMulticastClientFactory())
        .Add("uds", new UdsMulticastClientFactory());

    private static Task<int> Main(string[] args) => ClientHost.RunAsync(args, s_protocols, Protocols.DefaultSocketPath("multicast"));
}
