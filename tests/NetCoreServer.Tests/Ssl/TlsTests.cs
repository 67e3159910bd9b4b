using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer.Certificates;
using NetCoreServer.Connections;
using NetCoreServer.Transports.Tls;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Ssl;

/// <summary>What only TLS has: certificate validation, handshake timeout, mutual TLS, SNI, ALPN, versions.</summary>
[TestFixture]
public sealed class TlsTests
{
    private static readonly X509Certificate2 s_authority = SslTestTransport.Authority;
    private static readonly X509Certificate2 s_otherAuthority = DevelopmentCertificates.CreateAuthority("Some Other CA");

    private static TestServer Start(SslTestTransport transport)
    {
        var server = new TestServer(transport, IPAddress.Loopback);
        Assert.That(server.Start(), Is.True);
        return server;
    }

    private static SslContext Server(X509Certificate2 certificate, SslProtocols protocols = SslProtocols.Tls12 | SslProtocols.Tls13) => new(protocols, certificate);

    private static SslContext Client(SslProtocols protocols = SslProtocols.Tls12 | SslProtocols.Tls13) => new(protocols, TrustedBy.Authority(s_authority));

    private static async Task<TestClient> ConnectExpectingFailure(SslTestTransport transport, TestServer server)
    {
        var client = new TestClient(transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "handshake outcome"), Is.False, "the handshake must fail");
        await Wait.For(client.Closed, "client OnDisconnected after the failed handshake");
        Assert.That(client.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
        return client;
    }

    [Test]
    public async Task AnUntrustedServerCertificateIsRefusedWithAClearError()
    {
        var foreign = DevelopmentCertificates.CreateServer(s_otherAuthority);
        var transport = new SslTestTransport(() => Server(foreign), () => Client());
        using var server = Start(transport);

        using var client = await ConnectExpectingFailure(transport, server);

        var ssl = (SslClient)client.Client;
        Assert.That(ssl.HandshakeException, Is.InstanceOf<AuthenticationException>(), "the reason is kept for the user");
        Assert.That(client.Log.Snapshot(), Does.Contain("OnError " + SocketError.AccessDenied), "OnError says access denied");
        await Wait.For(server.Disconnected.Reaches(1), "server session closed after the client refused its certificate");
        // With TLS 1.3 the server may finish its half of the handshake before the client rejects the certificate,
        // so it sees a failed handshake, a closed stream or a reset (the client drops unread tickets); never data.
        Assert.That(server.LastSession!.DisconnectReason, Is.AnyOf(DisconnectReason.HandshakeFailed, DisconnectReason.PeerClosed, DisconnectReason.Error));
        Assert.That(server.Received.Value, Is.EqualTo(0));
        await Wait.Until(() => server.ConnectedSessions == 0, "no session left registered (a session leaves the table after its OnDisconnected)");
    }

    [Test]
    public async Task AnExpiredServerCertificateIsRefused()
    {
        var expired = DevelopmentCertificates.CreateServer(s_authority, notBefore: DateTimeOffset.UtcNow.AddDays(-3), notAfter: DateTimeOffset.UtcNow.AddDays(-1));
        var transport = new SslTestTransport(() => Server(expired), () => Client());
        using var server = Start(transport);

        using var client = await ConnectExpectingFailure(transport, server);
        Assert.That(((SslClient)client.Client).HandshakeException, Is.InstanceOf<AuthenticationException>());
    }

    [Test]
    public async Task ASilentPeerIsDroppedWhenTheHandshakeTimesOut()
    {
        var transport = new SslTestTransport(() => new SslContext(SslProtocols.Tls13, SslTestTransport.ServerCertificate) { HandshakeTimeout = TimeSpan.FromMilliseconds(300) }, () => Client());
        using var server = Start(transport);
        using var silent = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await silent.ConnectAsync(server.Endpoint);

        await Wait.For(server.Disconnected.Reaches(1), "session dropped by the handshake timeout", TimeSpan.FromSeconds(10));
        var session = (SslSession)server.LastSession!.Session;
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
        Assert.That(session.HandshakeException, Is.InstanceOf<TimeoutException>());
        Assert.That(server.LastSession.LastError, Is.EqualTo(SocketError.TimedOut));
        silent.ReceiveTimeout = 5000;
        Assert.That(silent.Receive(new byte[16]), Is.EqualTo(0), "the silent peer sees the connection closed");
        await Wait.Until(() => server.ConnectedSessions == 0, "no session left registered (a session leaves the table after its OnDisconnected)");
    }

    [Test]
    public async Task ASilentPeerIsDroppedOnlyWhenTheServersClockPassesTheHandshakeTimeout()
    {
        var clock = new ArmedClock();
        var timeout = TimeSpan.FromSeconds(30);
        var transport = new SslTestTransport(() => new SslContext(SslProtocols.Tls13, SslTestTransport.ServerCertificate) { HandshakeTimeout = timeout }, () => Client());
        using var server = new TestServer(transport, IPAddress.Loopback);
        server.Options.OptionTimeProvider = clock;
        Assert.That(server.Start(), Is.True);
        using var silent = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await silent.ConnectAsync(server.Endpoint);
        await Wait.For(clock.WhenArmed(timeout), "the handshake's clock armed on the server's provider");

        clock.Advance(timeout - TimeSpan.FromMilliseconds(1));
        Assert.That(server.Disconnected.Value, Is.Zero, "1 ms before the timeout: still waiting for the hello");
        clock.Advance(TimeSpan.FromMilliseconds(1));

        await Wait.For(server.Disconnected.Reaches(1), "session dropped by the handshake timeout");
        var session = (SslSession)server.LastSession!.Session;
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
        Assert.That(session.HandshakeException, Is.InstanceOf<TimeoutException>());
    }

    [Test]
    public async Task APlaintextClientOnTheTlsPortIsDroppedAndTheServerKeepsWorking()
    {
        var transport = new SslTestTransport(SslTestTransport.DefaultServerContext, () => Client());
        using var server = Start(transport);
        using (var plain = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
        {
            await plain.ConnectAsync(server.Endpoint);
            await plain.SendAsync("GET / HTTP/1.1\r\nHost: x\r\n\r\n"u8.ToArray());
            await Wait.For(server.Disconnected.Reaches(1), "plaintext session dropped");
            Assert.That(server.LastSession!.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
            // AccessDenied is kept for a refused certificate: a peer that does not speak TLS is a protocol error.
            Assert.That(server.LastSession.LastError, Is.EqualTo(SocketError.ProtocolNotSupported), "OnError says the peer did not speak TLS");
            Assert.That(((SslSession)server.LastSession.Session).HandshakeException, Is.InstanceOf<AuthenticationException>(), "the platform's reason is kept");
        }

        using var client = new TestClient(transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "TLS client after the plaintext one"), Is.True);
        client.SendAsync("still fine");
        await Wait.For(client.Received.Reaches(10), "echo");
    }

    [Test]
    public async Task AMalformedTlsRecordIsAProtocolErrorNotAccessDenied()
    {
        var transport = new SslTestTransport(SslTestTransport.DefaultServerContext, () => Client());
        using var server = Start(transport);
        using var peer = await RawPeer.ConnectAsync(server.Endpoint);
        // A complete handshake record (type 22, version 3.3, 8 bytes) whose message is no valid ClientHello.
        await peer.Socket.SendAsync(new byte[] { 22, 3, 3, 0, 8, 1, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF });
        await Wait.For(server.Disconnected.Reaches(1), "session with the malformed record dropped");
        Assert.That(server.LastSession!.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
        Assert.That(server.LastSession.LastError, Is.EqualTo(SocketError.ProtocolNotSupported));
        await Wait.For(peer.Closed(), "the peer sees the connection closed");
    }

    [Test]
    public async Task PendingHandshakesBeyondTheCapWaitInTheBacklogUntilOneEnds()
    {
        var transport = new SslTestTransport(SslTestTransport.DefaultServerContext, () => Client());
        using var server = new TestServer(transport, IPAddress.Loopback);
        var ssl = (SslServer)server.Inner;
        ssl.OptionMaxPendingHandshakes = 2;
        ssl.OptionPendingHandshakePolicy = PendingHandshakePolicy.WaitInBacklog;
        Assert.That(server.Start(), Is.True);
        using var silent1 = await RawPeer.ConnectAsync(server.Endpoint);
        using var silent2 = await RawPeer.ConnectAsync(server.Endpoint);
        await Wait.For(server.Accepted.Reaches(2), "two silent connections accepted");
        Assert.That(ssl.PendingHandshakes, Is.EqualTo(2));

        using var good = new TestClient(transport, server);
        var connect = good.ConnectAndWaitAsync();
        Assert.That(await Wait.Within(connect, TimeSpan.FromMilliseconds(500)), Is.False, "the third handshake waits while two are pending");
        Assert.That(server.Accepted.Value, Is.EqualTo(2), "the third connection is not accepted yet: it waits in the backlog");

        silent1.Dispose();
        Assert.That(await Wait.For(connect, "the waiting client handshakes once a slot frees"), Is.True);
        good.SendAsync("served");
        await Wait.For(good.Received.Reaches(6), "echo after the wait");
        Assert.That(ssl.PendingHandshakes, Is.EqualTo(1), "only the remaining silent peer is pending");
    }

    [Test]
    public async Task AtThePendingHandshakeCapTheOldestIsDroppedSoAGoodClientGetsIn()
    {
        var transport = new SslTestTransport(SslTestTransport.DefaultServerContext, () => Client());
        using var server = new TestServer(transport, IPAddress.Loopback);
        var ssl = (SslServer)server.Inner;
        ssl.OptionMaxPendingHandshakes = 2;
        Assert.That(ssl.OptionPendingHandshakePolicy, Is.EqualTo(PendingHandshakePolicy.DropOldest), "the default");
        Assert.That(server.Start(), Is.True);
        using var oldest = await RawPeer.ConnectAsync(server.Endpoint);
        await Wait.For(server.Accepted.Reaches(1), "the first silent connection accepted");
        using var second = await RawPeer.ConnectAsync(server.Endpoint);
        await Wait.For(server.Accepted.Reaches(2), "the second silent connection accepted");

        using var good = new TestClient(transport, server);
        Assert.That(await Wait.For(good.ConnectAndWaitAsync(), "the good client handshakes at once", TimeSpan.FromSeconds(5)), Is.True);
        await Wait.For(oldest.Closed(), "the oldest silent connection was dropped for it");
        good.SendAsync("served");
        await Wait.For(good.Received.Reaches(6), "echo");
        // After the echo the server's side of the good handshake has finished too (the client's finishes first).
        Assert.That(ssl.PendingHandshakes, Is.EqualTo(1), "the second silent connection still pending");
        // The peer sees its socket closed as soon as the drop closes it; the session records why once its failed
        // handshake comes back to the engine, which may be a moment later on a loaded machine.
        var dropped = server.Sessions.First();
        await Wait.Until(() => dropped.DisconnectReason != DisconnectReason.None, "the dropped session's disconnect recorded");
        Assert.That(dropped.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
    }

    [Test]
    public async Task MutualTlsAcceptsTheTrustedClientCertificateAndRefusesOthers()
    {
        var trustedClient = DevelopmentCertificates.CreateClient(s_authority);
        var foreignClient = DevelopmentCertificates.CreateClient(s_otherAuthority);
        SslContext ServerContext() => new(SslProtocols.Tls12 | SslProtocols.Tls13, SslTestTransport.ServerCertificate, TrustedBy.Authority(s_authority))
        {
            ClientCertificateRequired = true,
        };

        var good = new SslTestTransport(ServerContext, () => new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, new X509Certificate2Collection(trustedClient), TrustedBy.Authority(s_authority)));
        using (var server = Start(good))
        {
            using var client = new TestClient(good, server);
            Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "mutual TLS handshake"), Is.True);
            await Wait.For(server.FirstConnected, "server handshaked");
            var session = (SslSession)server.LastSession!.Session;
            Assert.That(session.RemoteCertificate?.Subject, Is.EqualTo(trustedClient.Subject), "server sees the client certificate");
            client.SendAsync("mtls");
            await Wait.For(client.Received.Reaches(4), "echo over mutual TLS");
        }

        foreach (var offered in new[] { foreignClient, null })
        {
            var bad = new SslTestTransport(ServerContext, () => offered == null
                ? new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, TrustedBy.Authority(s_authority))
                : new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, new X509Certificate2Collection(offered), TrustedBy.Authority(s_authority)));
            using var server = Start(bad);
            using var client = new TestClient(bad, server);
            // With TLS 1.3 the client may finish its side before the server rejects it; either way nothing flows.
            await client.ConnectAndWaitAsync();
            await Wait.For(server.Disconnected.Reaches(1), offered == null ? "session without a client certificate dropped" : "session with a foreign client certificate dropped");
            Assert.That(server.LastSession!.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
            Assert.That(server.Received.Value, Is.EqualTo(0), "no data accepted from a refused client");
            await Wait.For(client.Closed, "refused client disconnected");
        }
    }

    [Test]
    public async Task SniChoosesTheCertificateForTheRequestedHostName()
    {
        var alpha = DevelopmentCertificates.CreateServer(s_authority, "alpha.test");
        var seen = new List<string?>();
        SslContext ServerContext() => new(SslProtocols.Tls13, SslTestTransport.ServerCertificate)
        {
            ServerCertificateSelector = host =>
            {
                lock (seen)
                    seen.Add(host);
                return host == "alpha.test" ? alpha : null;
            },
        };
        var toAlpha = new SslTestTransport(ServerContext, () => Client(SslProtocols.Tls13), c => c.TargetHost = "alpha.test");
        using var server = Start(toAlpha);

        using var alphaClient = new TestClient(toAlpha, server);
        Assert.That(await Wait.For(alphaClient.ConnectAndWaitAsync(), "handshake for alpha.test"), Is.True, "alpha.test certificate chosen (the name check passed)");
        Assert.That(((SslClient)alphaClient.Client).RemoteCertificate?.Subject, Does.Contain("alpha.test"));

        var toLocalhost = new SslTestTransport(ServerContext, () => Client(SslProtocols.Tls13), c => c.TargetHost = "localhost");
        using var localClient = new TestClient(toLocalhost, server);
        Assert.That(await Wait.For(localClient.ConnectAndWaitAsync(), "handshake for localhost"), Is.True, "fallback certificate for other names");
        Assert.That(((SslClient)localClient.Client).RemoteCertificate?.Subject, Does.Contain("localhost"));
        lock (seen)
            Assert.That(seen, Does.Contain("alpha.test").And.Contain("localhost"));
    }

    [Test]
    public async Task AReplacedCertificateIsUsedByNewSessionsWhileOldOnesKeepWorking()
    {
        var first = DevelopmentCertificates.CreateServer(s_authority);
        var second = DevelopmentCertificates.CreateServer(s_authority);
        var context = new SslContext(SslProtocols.Tls13, first);
        var transport = new SslTestTransport(() => context, () => Client(SslProtocols.Tls13));
        using var server = Start(transport);

        using var before = new TestClient(transport, server);
        Assert.That(await Wait.For(before.ConnectAndWaitAsync(), "first handshake"), Is.True);
        context.Certificate = second;
        using var after = new TestClient(transport, server);
        Assert.That(await Wait.For(after.ConnectAndWaitAsync(), "second handshake"), Is.True);

        Assert.That(((SslClient)before.Client).RemoteCertificate?.GetCertHashString(), Is.EqualTo(first.Thumbprint));
        Assert.That(((SslClient)after.Client).RemoteCertificate?.GetCertHashString(), Is.EqualTo(second.Thumbprint));
        before.SendAsync("old session");
        await Wait.For(before.Received.Reaches(11), "the old session still echoes");
    }

    [Test]
    public async Task TheServerCertificateContextIsBuiltOncePerCertificateAndServesEveryHandshake()
    {
        var first = DevelopmentCertificates.CreateServer(s_authority);
        var second = DevelopmentCertificates.CreateServer(s_authority);
        var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, first);
        var built = TlsHandshake.ServerOptions(context, () => { }).ServerCertificateContext;
        Assert.That(built, Is.Not.Null, "a certificate with its key is handed to SslStream as a prepared context");
        Assert.That(built!.TargetCertificate.Thumbprint, Is.EqualTo(first.Thumbprint));
        Assert.That(TlsHandshake.ServerOptions(context, () => { }).ServerCertificateContext, Is.SameAs(built), "the second handshake reuses it");

        // Many handshakes (both versions) on one server all present the certificate through that one context.
        var transport = new SslTestTransport(() => context, () => Client());
        using (var server = Start(transport))
        {
            for (var i = 0; i < 4; i++)
            {
                using var client = new TestClient(transport, server);
                Assert.That(await Wait.For(client.ConnectAndWaitAsync(), $"handshake {i}"), Is.True);
                Assert.That(((SslClient)client.Client).RemoteCertificate?.GetCertHashString(), Is.EqualTo(first.Thumbprint));
                client.SendAsync("ping");
                await Wait.For(client.Received.Reaches(4), $"echo {i}");
            }
        }
        Assert.That(TlsHandshake.ServerOptions(context, () => { }).ServerCertificateContext, Is.SameAs(built), "still the one built first");

        context.Certificate = second;
        var rebuilt = TlsHandshake.ServerOptions(context, () => { }).ServerCertificateContext;
        Assert.That(rebuilt, Is.Not.SameAs(built), "a replaced certificate gets its own context");
        Assert.That(rebuilt!.TargetCertificate.Thumbprint, Is.EqualTo(second.Thumbprint));

        // Without its private key the certificate goes to SslStream as it is, which looks the key up in the stores.
        context.Certificate = X509CertificateLoader.LoadCertificate(first.RawData);
        var withoutKey = TlsHandshake.ServerOptions(context, () => { });
        Assert.That(withoutKey.ServerCertificateContext, Is.Null);
        Assert.That(withoutKey.ServerCertificate, Is.SameAs(context.Certificate));
    }

    [Test]
    public async Task AlpnAgreesOnTheProtocolBothSidesSupport()
    {
        var transport = new SslTestTransport(
            () => new SslContext(SslProtocols.Tls13, SslTestTransport.ServerCertificate)
            {
                ApplicationProtocols = new List<SslApplicationProtocol> { new("chat/2"), new("echo/1") },
            },
            () => new SslContext(SslProtocols.Tls13, TrustedBy.Authority(s_authority))
            {
                ApplicationProtocols = new List<SslApplicationProtocol> { new("echo/1") },
            });
        using var server = Start(transport);
        using var client = new TestClient(transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "handshake"), Is.True);
        await Wait.For(server.FirstConnected, "server handshaked");

        Assert.That(((SslClient)client.Client).NegotiatedApplicationProtocol.ToString(), Is.EqualTo("echo/1"));
        Assert.That(((SslSession)server.LastSession!.Session).NegotiatedApplicationProtocol.ToString(), Is.EqualTo("echo/1"));
    }

    [TestCase(SslProtocols.Tls12)]
    [TestCase(SslProtocols.Tls13)]
    public async Task BothTls12AndTls13CarryData(SslProtocols version)
    {
        var transport = new SslTestTransport(SslTestTransport.DefaultServerContext, () => Client(version));
        using var server = Start(transport);
        using var client = new TestClient(transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), $"{version} handshake"), Is.True);
        Assert.That(((SslClient)client.Client).NegotiatedProtocol, Is.EqualTo(version));
        var payload = new byte[100_000];
        new Random(3).NextBytes(payload);
        client.SendAsync(payload);
        await Wait.For(client.Received.Reaches(payload.Length), "echo");
        Assert.That(client.Data(), Is.EqualTo(payload));
    }

    [Test]
    public async Task SendsQueuedBeforeTheHandshakeAreDeliveredAfterIt()
    {
        var transport = new SslTestTransport(SslTestTransport.DefaultServerContext, () => Client());
        using var server = Start(transport);
        using var client = new TestClient(transport, server);
        // ConnectAsync returns before the TCP connect and the handshake; SendAsync is accepted once connected.
        Assert.That(client.Client.ConnectAsync(), Is.True);
        await Wait.For(Task.Run(async () =>
        {
            while (!client.Client.IsConnected)
                await Task.Delay(1);
        }), "TCP connected");
        var handshaked = ((SslClient)client.Client).IsHandshaked;
        Assert.That(client.SendAsync("early"), Is.True);
        await Wait.For(client.Received.Reaches(5), "early data echoed after the handshake");
        Assert.That(client.Data(), Is.EqualTo("early"u8.ToArray()));
        TestContext.Out.WriteLine($"handshaked when the data was queued: {handshaked}");
    }
}
