using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>The ssl multicast server: TLS 1.2 or 1.3 with the certificate of <c>--cert</c> (see <see cref="DevelopmentTls"/>).</summary>
internal sealed class SslMulticastServerFactory : IBenchmarkServerFactory<MulticastServerOptions>
{
    public IBenchmarkServer Create(MulticastServerOptions options)
    {
        var context = new SslContext(DevelopmentTls.ServerProtocols, DevelopmentTls.LoadServerCertificate(options.Certificate, options.Password));
        return new MulticastSslServer(context, options.Address, options.ResolvedPort, options.Messages, options.Size);
    }
}
