using System;
using System.Linq;
using System.Net;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Certificates;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The compat-shaped TLS classes end to end over loopback with in-process certificates, set up the way NetCoreServer's
/// SSL examples are: <c>new SslContext(SslProtocols.Tls12, certificate, validationCallback)</c>, mutual TLS with
/// <see cref="SslContext.ClientCertificateRequired"/>, handshake hooks in NetCoreServer's order.
/// </summary>
[TestFixture]
public sealed class SslCompatibilityTests
{
    private static readonly X509Certificate2 s_authority = SslTestTransport.Authority;

    private static readonly X509Certificate2 s_clientCertificate = DevelopmentCertificates.CreateClient(s_authority);

    private static CompatSslServer StartedServer()
    {
        // NetCoreServer's SslChatServer: new SslContext(SslProtocols.Tls12, certificate, callback), client certificates required.
        var context = new SslContext(SslProtocols.Tls12, SslTestTransport.ServerCertificate, (sender, certificate, chain, sslPolicyErrors) =>
            TrustedBy.Authority(s_authority)(sender, certificate, chain, sslPolicyErrors));
        context.ClientCertificateRequired = true;
        var server = new CompatSslServer(context, IPAddress.Loopback, 0);
        server.OptionNoDelay = true;
        server.OptionKeepAlive = true;
        server.OptionReceiveBufferSize = 8192;
        server.OptionSendBufferSize = 8192;
        Assert.That(server.Start(), Is.True, "Start returns true");
        return server;
    }

    private static CompatSslClient NewClient(CompatSslServer server)
    {
        var context = new SslContext(SslProtocols.Tls12, s_clientCertificate, TrustedBy.Authority(s_authority));
        var client = new CompatSslClient(context, IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
        client.OptionNoDelay = true;
        client.OptionKeepAlive = true;
        client.OptionReceiveBufferSize = 8192;
        client.OptionSendBufferSize = 8192;
        return client;
    }

    [Test]
    public async Task AnEchoOverMutualTlsRoundTripsWithTheHandshakeHooksInNetCoreServersOrder()
    {
        using var server = StartedServer();
        using var client = NewClient(server);
        Assert.That(client.Context.Protocols, Is.EqualTo(SslProtocols.Tls12));
        Assert.That(server.Context.ClientCertificateRequired, Is.True);

        Assert.That(client.ConnectAsync(), Is.True, "ConnectAsync returns bool");
        await Wait.For(client.Probe.Logged("OnEmpty"), "client handshaked and empty");
        await Wait.For(server.Probe.Logged("session.OnEmpty"), "session handshaked and empty");
        Assert.That(client.IsHandshaked, Is.True);
        Assert.That(client.IsHandshaking, Is.False);
        var session = server.ConnectedSessionList().Single();
        Assert.That(session.IsHandshaked, Is.True);
        Assert.That(server.FindSession(session.Id), Is.SameAs(session));
        Assert.That(session.RemoteCertificate?.Subject, Is.EqualTo(s_clientCertificate.Subject), "the client certificate reached the server");

        var expected = new StringBuilder();
        foreach (var part in new[] { "tls-1;", "tls-2;", "tls-3;" })
            expected.Append(part);
        Assert.That(client.Send("tls-1;"), Is.EqualTo(6));
        Assert.That(client.SendAsync(TcpCompatibilityTests.Padded("tls-2;"), 2, 6), Is.True);
        Assert.That(client.SendAsync("tls-3;".AsSpan()), Is.True);
        await Wait.For(client.Probe.ReceivedBytes.Reaches(expected.Length), "the echo over TLS");
        Assert.That(client.Probe.ReceivedText(), Is.EqualTo(expected.ToString()));
        Assert.That(server.Multicast("all;"), Is.True);
        await Wait.For(client.Probe.ReceivedBytes.Reaches(expected.Length + 4), "a Multicast over TLS");

        Assert.That(client.DisconnectAsync(), Is.True);
        await Wait.For(server.Probe.Logged("server.OnDisconnected"), "server OnDisconnected for the session");
        Assert.That(client.IsHandshaked, Is.False, "a disconnected client is no longer handshaked, as in NetCoreServer");
        Assert.That(session.IsHandshaked, Is.False, "nor is a disconnected session");
        Assert.That(server.Stop(), Is.True);

        Assert.That(server.Probe.Snapshot().Take(11), Is.EqualTo(new[]
        {
            "server.OnStarting", "server.OnStarted",
            "session.OnConnecting", "server.OnConnecting", "session.OnConnected", "server.OnConnected",
            "session.OnHandshaking", "server.OnHandshaking", "session.OnHandshaked", "server.OnHandshaked",
            "session.OnEmpty",
        }), "NetCoreServer's TLS connect order: connected, then handshaking, handshaked, empty");
        Assert.That(server.Probe.Skeleton("session.OnReceived", "session.OnSent", "session.OnEmpty").Skip(10), Is.EqualTo(new[]
        {
            "session.OnDisconnecting", "server.OnDisconnecting", "session.OnDisconnected", "server.OnDisconnected",
            "server.OnStopping", "server.OnStopped",
        }));
        Assert.That(client.Probe.Snapshot().Take(5), Is.EqualTo(new[] { "OnConnecting", "OnConnected", "OnHandshaking", "OnHandshaked", "OnEmpty" }));
        Assert.That(client.Probe.Skeleton("OnReceived", "OnSent", "OnEmpty").Skip(4), Is.EqualTo(new[] { "OnDisconnecting", "OnDisconnected" }));
        Assert.That(server.Probe.Errors, Is.Empty, "server and session errors");
        Assert.That(client.Probe.Errors, Is.Empty, "client errors");
    }

    [Test]
    public async Task ASynchronousTlsClientIsHandshakedWhenConnectReturns()
    {
        using var server = StartedServer();
        using var client = NewClient(server);

        await Wait.For(Task.Run(() =>
        {
            Assert.That(client.Connect(), Is.True, "synchronous Connect");
            Assert.That(client.IsHandshaked, Is.True, "NetCoreServer's synchronous SSL connect handshakes before it returns");
            Assert.That(client.Probe.Snapshot(), Is.EqualTo(new[] { "OnConnecting", "OnConnected", "OnHandshaking", "OnHandshaked", "OnEmpty" }));
            Assert.That(client.Send("sync tls"), Is.EqualTo(8));
            var text = new StringBuilder();
            while (text.Length < 8)
                text.Append(client.Receive(8 - text.Length));
            Assert.That(text.ToString(), Is.EqualTo("sync tls"), "Receive(long) over TLS");
        }), "the synchronous TLS exchange");

        Assert.That(client.Disconnect(), Is.True);
        Assert.That(client.IsConnected || client.IsHandshaked, Is.False, "neither connected nor handshaked after Disconnect");
        Assert.That(client.Probe.Errors, Is.Empty, "client errors");
    }

    [Test]
    public void EveryNetCoreServerSslContextConstructorKeepsWhatItWasGiven()
    {
        RemoteCertificateValidationCallback callback = (sender, certificate, chain, sslPolicyErrors) => true;
        var collection = new X509Certificate2Collection(s_clientCertificate);

        Assert.That(new SslContext().Protocols, Is.Not.EqualTo(SslProtocols.None), "the default context names a protocol");
        Assert.That(new SslContext(SslProtocols.Tls12).Protocols, Is.EqualTo(SslProtocols.Tls12));
        Assert.That(new SslContext(SslProtocols.Tls12, s_clientCertificate).Certificate, Is.SameAs(s_clientCertificate));
        var withCallback = new SslContext(SslProtocols.Tls13, s_clientCertificate, callback);
        Assert.That(withCallback.CertificateValidationCallback, Is.SameAs(callback));
        Assert.That(new SslContext(SslProtocols.Tls12, s_clientCertificate, null).CertificateValidationCallback, Is.Null,
            "null for the callback, as NetCoreServer's own two-argument constructor passes");
        Assert.That(new SslContext(SslProtocols.Tls12, collection).Certificates, Is.SameAs(collection));
        Assert.That(new SslContext(SslProtocols.Tls12, collection, callback).CertificateValidationCallback, Is.SameAs(callback));

        var settable = new SslContext
        {
            Protocols = SslProtocols.Tls13,
            Certificate = s_clientCertificate,
            Certificates = collection,
            CertificateValidationCallback = callback,
            ClientCertificateRequired = true,
        };
        Assert.That(settable.ClientCertificateRequired, Is.True);
    }
}
