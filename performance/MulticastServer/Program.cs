using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// Multicast benchmark server: multicasts <c>-s</c>-byte messages to every connected session (tcp, ssl or uds), as fast
/// as the sessions take them or at <c>-m</c> messages per second. Over udp it sends each message once to a group on the
/// loopback interface, and runs only inside a private network namespace (see <see cref="UnsafeNetworkException.ThrowIfNotPrivate"/>).
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<IBenchmarkServerFactory<MulticastServerOptions>> s_protocols = new ProtocolCatalog<IBenchmarkServerFactory<MulticastServerOptions>>()
        .Add("tcp", new TcpMulticastServerFactory())
        .Add("ssl", new SslMulticastServerFactory())
        .Add("uds", new UdsMulticastServerFactory())
        .Add("udp", new UdpMulticastServerFactory());

    private static Task<int> Main(string[] args) => ServerHost.RunAsync(args, "Multicast server", s_protocols, Protocols.DefaultSocketPath("multicast"));
}
