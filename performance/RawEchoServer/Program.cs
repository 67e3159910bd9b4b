using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.RawEchoServer;

/// <summary>
/// Baseline echo server written directly on <see cref="Socket"/> (tcp, uds and udp) and on the runtime's
/// <see cref="System.Net.Security.SslStream"/> (ssl): what the echo benchmark achieves with no library at all, to
/// compare the library's echo server against.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<ServerFactory<ServerOptions>> s_protocols = new ProtocolCatalog<ServerFactory<ServerOptions>>()
        .Add("tcp", options => new RawTcpEchoServer(new IPEndPoint(IPAddress.Parse(options.Address), options.ResolvedPort)))
        // TLS 1.2 or 1.3 with the certificate of --cert, the one the library's ssl echo server serves (see DevelopmentTls).
        .Add("ssl", options => new RawTcpEchoServer(new IPEndPoint(IPAddress.Parse(options.Address), options.ResolvedPort),
            DevelopmentTls.LoadServerCertificate(options.Certificate, options.Password)))
        .Add("uds", options => new RawTcpEchoServer(new UnixDomainSocketEndPoint(options.ResolvedPath)))
        .Add("udp", options => new RawUdpEchoServer(new IPEndPoint(IPAddress.Parse(options.Address), options.ResolvedPort)));

    private static Task<int> Main(string[] args) => ServerHost.RunAsync(args, "Raw echo server", s_protocols, Protocols.DefaultSocketPath("echo"));
}
