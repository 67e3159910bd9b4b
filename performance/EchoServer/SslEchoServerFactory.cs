using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>The ssl echo server: TLS 1.2 or 1.3 with the certificate of <c>--cert</c> (see <see cref="DevelopmentTls"/>).</summary>
internal sealed class SslEchoServerFactory : IBenchmarkServerFactory<ServerOptions>
{
    public IBenchmarkServer Create(ServerOptions options)
    {
        var context = new SslContext(DevelopmentTls.ServerProtocols, DevelopmentTls.LoadServerCertificate(options.Certificate, options.Password));
        return new EchoSslServer(context, options.Address, options.ResolvedPort);
    }
}
