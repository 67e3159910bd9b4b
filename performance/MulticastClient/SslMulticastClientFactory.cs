using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>The ssl multicast client: all clients share one context, which trusts the authority of <c>--ca</c> (see <see cref="DevelopmentTls"/>).</summary>
internal sealed class SslMulticastClientFactory : IBenchmarkClientFactory<ClientOptions>
{
    private SslContext? _context;

    public IBenchmarkClient Create(ClientOptions options, ConnectionMeter meter)
    {
        _context ??= new SslContext(DevelopmentTls.ClientProtocols, DevelopmentTls.TrustAuthority(options.Authority));
        return new MulticastSslClient(_context, options.Address, options.ResolvedPort, meter);
    }
}
