using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Multicast benchmark client: <c>-c</c> clients receive from a multicast server (tcp, framed, ssl, uds, ws, wss, or a udp group joined on the loopback interface) for <c>-z</c> seconds;
/// messages are counted as received bytes (over ws, wss and framed, the payload bytes of whole messages) divided by the message size <c>-s</c>, which must match the server's.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<ClientFactory<MulticastClientOptions>> s_protocols = new ProtocolCatalog<ClientFactory<MulticastClientOptions>>()
        .Add("tcp", options => meter => new MulticastTcpClient(options.Address, options.ResolvedPort, meter))
        // tcp with 4-byte big-endian length prefixes: counts whole messages' payload bytes.
        .Add("framed", options => meter => new MulticastFramedClient(options.Address, options.ResolvedPort, MessageFraming.LengthPrefixed(4), meter))
        .Add("ssl", options =>
        {
            // One context for all clients, trusting the authority of --ca (see DevelopmentTls).
            var context = new SslContext(DevelopmentTls.ClientProtocols, DevelopmentTls.TrustAuthority(options.Authority));
            return meter => new MulticastSslClient(context, options.Address, options.ResolvedPort, meter);
        })
        .Add("uds", options => meter => new MulticastUdsClient(options.ResolvedPath, meter))
        .Add("ws", options => meter => new MulticastWsClient(options.Address, options.ResolvedPort, meter))
        .Add("wss", options =>
        {
            var context = new SslContext(DevelopmentTls.ClientProtocols, DevelopmentTls.TrustAuthority(options.Authority));
            return meter => new MulticastWssClient(context, options.Address, options.ResolvedPort, meter);
        })
        .Add("udp", options =>
        {
            // Joins --group:-p; only where lo is the only interface (see UnsafeNetworkException.ThrowIfNotPrivate).
            UnsafeNetworkException.ThrowIfNotPrivate("udp multicast");
            var group = IPAddress.Parse(options.Group);
            return meter => new MulticastUdpClient(group, options.ResolvedPort, meter);
        });

    private static Task<int> Main(string[] args) => ClientHost.RunAsync(args, s_protocols, Common.Protocols.DefaultSocketPath("multicast"));
}
