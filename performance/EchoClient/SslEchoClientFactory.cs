using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>The ssl echo client: all clients share one context, which trusts the authority of <c>--ca</c> (see <see cref="DevelopmentTls"/>).</summary>
internal sealed class SslEchoClientFactory : EchoClientFactory
{
    private SslContext? _context;

    protected override IBenchmarkClient Create(EchoClientOptions options, EchoClientLogic echo)
    {
        _context ??= new SslContext(DevelopmentTls.ClientProtocols, DevelopmentTls.TrustAuthority(options.Authority));
        return new EchoSslClient(_context, options.Address, options.ResolvedPort, echo);
    }
}
