using System;
using System.Net;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Certificates;

namespace NetCoreServer.Tests.Support;

/// <summary>TLS 1.2/1.3 with in-process certificates: a test CA, a server certificate, validation against that CA.</summary>
internal sealed class SslTestTransport : TestTransport
{
    public static readonly X509Certificate2 Authority = DevelopmentCertificates.CreateAuthority();

    public static readonly X509Certificate2 ServerCertificate = DevelopmentCertificates.CreateServer(Authority);

    private readonly Func<SslContext> _serverContext;
    private readonly Func<SslContext> _clientContext;
    private readonly Action<SslClient>? _configureClient;
    private readonly bool _pool;

    public SslTestTransport()
        : this(DefaultServerContext, DefaultClientContext)
    {
    }

    /// <summary>TLS with the server's sessions on the runtime's thread pool (OptionEventLoops = 0) when <paramref name="pool"/>.</summary>
    public SslTestTransport(bool pool)
        : this(DefaultServerContext, DefaultClientContext)
    {
        _pool = pool;
    }

    /// <summary>A TLS transport with chosen contexts (a new one per server or client) for the TLS-specific tests.</summary>
    public SslTestTransport(Func<SslContext> serverContext, Func<SslContext> clientContext, Action<SslClient>? configureClient = null)
    {
        _serverContext = serverContext;
        _clientContext = clientContext;
        _configureClient = configureClient;
    }

    public static SslContext DefaultServerContext() => new(SslProtocols.Tls12 | SslProtocols.Tls13, ServerCertificate);

    public static SslContext DefaultClientContext() => new(SslProtocols.Tls12 | SslProtocols.Tls13, TrustedBy.Authority(Authority));

    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new ProbeServers.Ssl(_serverContext(), probe, address).OnEngine(_pool);

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint)
    {
        var client = new ProbeClients.Ssl(_clientContext(), probe, (IPEndPoint)endpoint);
        _configureClient?.Invoke(client);
        return client;
    }

    public override bool Secure => true;

    public override string ToString() => _pool ? "ssl-pool" : "ssl";
}
