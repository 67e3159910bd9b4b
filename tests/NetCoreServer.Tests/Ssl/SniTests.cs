using System;
using System.Collections.Generic;
using System.Net;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer.Certificates;
using NetCoreServer.Connections;
using NetCoreServer.Transports.Tls;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Ssl;

/// <summary>SNI: the certificate chosen per host name over real TLS, and what choosing it costs per handshake.</summary>
[TestFixture]
public sealed class SniTests
{
    private static readonly X509Certificate2 s_authority = SslTestTransport.Authority;
    private static readonly X509Certificate2 s_alpha = DevelopmentCertificates.CreateServer(s_authority, "alpha.test");
    private static readonly X509Certificate2 s_beta = DevelopmentCertificates.CreateServer(s_authority, "beta.test");

    private static SslContext Client(SslProtocols protocols) => new(protocols, TrustedBy.Authority(s_authority));

    /// <summary>A client for <paramref name="host"/> (null: by address, which sends no SNI) that handshakes and echoes once.</summary>
    private static async Task<string?> HandshakeAsync(TestServer server, SslContext serverContext, string? host, SslProtocols protocols, string what)
    {
        var transport = new SslTestTransport(() => serverContext, () => Client(protocols), c => c.TargetHost = host);
        using var client = new TestClient(transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), what), Is.True, what + " handshake");
        client.SendAsync("ping");
        await Wait.For(client.Received.Reaches(4), what + " echo");
        return ((SslClient)client.Client).RemoteCertificate?.GetCertHashString();
    }

    [Test]
    public async Task EachHostGetsItsCertificateNoSniGetsTheFallbackAndEachContextIsBuiltOnce()
    {
        var seen = new List<string?>();
        var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, SslTestTransport.ServerCertificate)
        {
            ServerCertificateSelector = host =>
            {
                lock (seen)
                    seen.Add(host);
                return host switch
                {
                    "alpha.test" => s_alpha,
                    "beta.test" => s_beta,
                    _ => null,
                };
            },
        };
        var transport = new SslTestTransport(() => context, () => Client(SslProtocols.Tls13));
        using var server = new TestServer(transport, IPAddress.Loopback);
        Assert.That(server.Start(), Is.True);

        // Several rounds over both versions: every handshake presents the right certificate.
        const int rounds = 3;
        foreach (var protocols in new[] { SslProtocols.Tls13, SslProtocols.Tls12 })
        {
            for (var i = 0; i < rounds; i++)
            {
                Assert.That(await HandshakeAsync(server, context, "alpha.test", protocols, $"alpha {protocols} {i}"), Is.EqualTo(s_alpha.Thumbprint));
                Assert.That(await HandshakeAsync(server, context, "beta.test", protocols, $"beta {protocols} {i}"), Is.EqualTo(s_beta.Thumbprint));
                Assert.That(await HandshakeAsync(server, context, null, protocols, $"no SNI {protocols} {i}"), Is.EqualTo(SslTestTransport.ServerCertificate.Thumbprint));
            }
        }

        lock (seen)
        {
            Assert.That(seen, Has.Exactly(2 * rounds).EqualTo("alpha.test"));
            Assert.That(seen, Has.Exactly(2 * rounds).EqualTo("beta.test"));
            Assert.That(seen, Has.Exactly(2 * rounds).Null, "a client that sent no name is asked for as null, as documented");
        }
        Assert.That(context.ServerCertificateContextsBuilt, Is.EqualTo(3), "one context per certificate (alpha, beta, fallback) for 18 handshakes");
        Assert.That(context.ServerCertificateContext(s_alpha), Is.SameAs(context.ServerCertificateContext(s_alpha)));
        Assert.That(context.ServerCertificateContext(s_alpha)!.TargetCertificate.Thumbprint, Is.EqualTo(s_alpha.Thumbprint));
        Assert.That(context.ServerCertificateContextsBuilt, Is.EqualTo(3));
    }

    [Test]
    public async Task ASelectorThatReturnsANewCertificateLaterGetsItOnTheNextHandshake()
    {
        var current = s_alpha;
        var context = new SslContext(SslProtocols.Tls13, SslTestTransport.ServerCertificate)
        {
            ServerCertificateSelector = host => host == "alpha.test" ? current : null,
        };
        var transport = new SslTestTransport(() => context, () => Client(SslProtocols.Tls13));
        using var server = new TestServer(transport, IPAddress.Loopback);
        Assert.That(server.Start(), Is.True);

        Assert.That(await HandshakeAsync(server, context, "alpha.test", SslProtocols.Tls13, "first"), Is.EqualTo(s_alpha.Thumbprint));
        var renewed = DevelopmentCertificates.CreateServer(s_authority, "alpha.test");
        current = renewed;
        Assert.That(await HandshakeAsync(server, context, "alpha.test", SslProtocols.Tls13, "renewed"), Is.EqualTo(renewed.Thumbprint));
        Assert.That(await HandshakeAsync(server, context, "alpha.test", SslProtocols.Tls13, "renewed again"), Is.EqualTo(renewed.Thumbprint));
        Assert.That(context.ServerCertificateContextsBuilt, Is.EqualTo(2), "the renewed certificate got its own context, once");
    }

    [Test]
    public async Task NoCertificateForTheHostAndNoFallbackFailsTheHandshakeAndTheServerGoesOn()
    {
        var context = new SslContext(SslProtocols.Tls13)
        {
            ServerCertificateSelector = host => host == "alpha.test" ? s_alpha : null,
        };
        var transport = new SslTestTransport(() => context, () => Client(SslProtocols.Tls13), c => c.TargetHost = "other.test");
        using var server = new TestServer(transport, IPAddress.Loopback);
        Assert.That(server.Start(), Is.True);

        using (var refused = new TestClient(transport, server))
        {
            Assert.That(await Wait.For(refused.ConnectAndWaitAsync(), "handshake outcome"), Is.False, "no certificate to present");
            await Wait.For(refused.Closed, "client closed after the failed handshake");
        }
        await Wait.For(server.Disconnected.Reaches(1), "the server closed the session");
        Assert.That(server.LastSession!.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
        Assert.That(((SslSession)server.LastSession.Session).HandshakeException, Is.InstanceOf<NotSupportedException>(), "the reason is kept: no certificate to present");

        Assert.That(await HandshakeAsync(server, context, "alpha.test", SslProtocols.Tls13, "alpha after the failure"), Is.EqualTo(s_alpha.Thumbprint));
    }

    [Test]
    public async Task ASelectorThatThrowsFailsThatHandshakeOnly()
    {
        var context = new SslContext(SslProtocols.Tls13, SslTestTransport.ServerCertificate)
        {
            ServerCertificateSelector = host => host == "broken.test" ? throw new ArgumentException("no such host") : null,
        };
        var transport = new SslTestTransport(() => context, () => Client(SslProtocols.Tls13), c => c.TargetHost = "broken.test");
        using var server = new TestServer(transport, IPAddress.Loopback);
        Assert.That(server.Start(), Is.True);

        using (var refused = new TestClient(transport, server))
        {
            Assert.That(await Wait.For(refused.ConnectAndWaitAsync(), "handshake outcome"), Is.False);
            await Wait.For(refused.Closed, "client closed after the failed handshake");
        }
        await Wait.For(server.Disconnected.Reaches(1), "the server closed the session");
        Assert.That(server.LastSession!.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
        Assert.That(((SslSession)server.LastSession.Session).HandshakeException, Is.InstanceOf<ArgumentException>(), "the selector's exception is kept");

        Assert.That(await HandshakeAsync(server, context, null, SslProtocols.Tls13, "no SNI after the failure"), Is.EqualTo(SslTestTransport.ServerCertificate.Thumbprint));
    }

    [Test]
    public void ADroppedCertificateDoesNotKeepItsContextAlive()
    {
        var context = new SslContext(SslProtocols.Tls13, SslTestTransport.ServerCertificate);
        var (certificate, built) = BuildForAThrowawayCertificate(context);
        for (var i = 0; i < 10 && (certificate.IsAlive || built.IsAlive); i++)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }
        Assert.That(certificate.IsAlive, Is.False, "the cache does not hold the certificate");
        Assert.That(built.IsAlive, Is.False, "nor its context once the certificate is gone");
        Assert.That(context.ServerCertificateContext(SslTestTransport.ServerCertificate), Is.Not.Null, "the cache still works");
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (WeakReference Certificate, WeakReference Context) BuildForAThrowawayCertificate(SslContext context)
    {
        var certificate = DevelopmentCertificates.CreateServer(s_authority, "gone.test");
        var built = context.ServerCertificateContext(certificate);
        Assert.That(built, Is.SameAs(context.ServerCertificateContext(certificate)));
        return (new WeakReference(certificate), new WeakReference(built));
    }

    [Test]
    public void ACertificateWithoutItsPrivateKeyIsHandedToSslStreamAsItIs()
    {
        var context = new SslContext(SslProtocols.Tls13, X509CertificateLoader.LoadCertificate(s_alpha.RawData));
        var options = TlsHandshake.ServerOptions(context, () => { });
        Assert.That(options.ServerCertificateContext, Is.Null);
        Assert.That(options.ServerCertificate, Is.SameAs(context.Certificate), "SslStream looks its key up in the stores");
        Assert.That(context.ServerCertificateContextsBuilt, Is.EqualTo(0));
    }
}
