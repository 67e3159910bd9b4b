using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// Multicast benchmark server: multicasts <c>-s</c>-byte messages to every connected session (tcp, ssl or uds; over ws
/// and wss each as one binary message to every upgraded session; over framed each with a 4-byte length), as fast
/// as the sessions take them or at <c>-m</c> messages per second. Over udp it sends each message once to a group on the
/// loopback interface, and runs only inside a private network namespace (see <see cref="UnsafeNetworkException.ThrowIfNotPrivate"/>).
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<ServerFactory<MulticastServerOptions>> s_protocols = new ProtocolCatalog<ServerFactory<MulticastServerOptions>>()
        .Add("tcp", options => new MulticastTcpServer(options.Address, options.ResolvedPort, options.Messages, options.Size) { OptionEventLoops = Loops(options) })
        // tcp with 4-byte big-endian length prefixes: each message framed once (MulticastMessage) for every session.
        .Add("framed", options => new MulticastTcpServer(options.Address, options.ResolvedPort, options.Messages, options.Size, MessageFraming.LengthPrefixed(4)) { OptionEventLoops = Loops(options) })
        // TLS 1.2 or 1.3 with the certificate of --cert (see DevelopmentTls).
        .Add("ssl", options => new MulticastSslServer(
            new SslContext(DevelopmentTls.ServerProtocols, DevelopmentTls.LoadServerCertificate(options.Certificate, options.Password)),
            options.Address, options.ResolvedPort, options.Messages, options.Size) { OptionEventLoops = Loops(options) })
        .Add("uds", options => new MulticastUdsServer(options.ResolvedPath, options.Messages, options.Size) { OptionEventLoops = Loops(options) })
        .Add("ws", options => new MulticastWsServer(options.Address, options.ResolvedPort, options.Messages, options.Size) { OptionEventLoops = Loops(options) })
        .Add("wss", options => new MulticastWssServer(
            new SslContext(DevelopmentTls.ServerProtocols, DevelopmentTls.LoadServerCertificate(options.Certificate, options.Password)),
            options.Address, options.ResolvedPort, options.Messages, options.Size) { OptionEventLoops = Loops(options) })
        .Add("udp", options =>
        {
            // Sends to --group:-p; only where lo is the only interface (see UnsafeNetworkException.ThrowIfNotPrivate).
            UnsafeNetworkException.ThrowIfNotPrivate("udp multicast");
            var group = new IPEndPoint(IPAddress.Parse(options.Group), options.ResolvedPort);
            return new MulticastUdpServer(options.Address, group, options.Messages, options.Size);
        });

    // --event-loops: -1 (not given) keeps the library's default engine.
    private static int Loops(ServerOptions options) => options.EventLoops < 0 ? EventLoops.DefaultCount : options.EventLoops;

    private static Task<int> Main(string[] args) => ServerHost.RunAsync(args, "Multicast server", s_protocols, Common.Protocols.DefaultSocketPath("multicast"));
}
