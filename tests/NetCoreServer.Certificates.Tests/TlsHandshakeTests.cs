using System;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Certificates.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Certificates.Tests;

/// <summary>
/// In-process certificates in real TLS handshakes between two SslStreams over loopback TCP: proves the keys survive
/// the PKCS#12 round trip in a form the platform's TLS stack (OpenSSL on Linux) can sign with.
/// </summary>
[TestFixture]
public sealed class TlsHandshakeTests
{
    private X509Certificate2 _authority = null!;
    private X509Certificate2 _server = null!;
    private X509Certificate2 _client = null!;

    [OneTimeSetUp]
    public void CreateCertificates()
    {
        _authority = DevelopmentCertificates.CreateAuthority();
        _server = DevelopmentCertificates.CreateServer(_authority);
        _client = DevelopmentCertificates.CreateClient(_authority);
    }

    [OneTimeTearDown]
    public void DisposeCertificates()
    {
        _client.Dispose();
        _server.Dispose();
        _authority.Dispose();
    }

    [TestCase("localhost", SslProtocols.Tls13)]
    [TestCase("localhost", SslProtocols.Tls12)]
    [TestCase("127.0.0.1", SslProtocols.Tls13)]
    public async Task MutualAuthenticationSucceedsAgainstTheCustomAuthority(string targetHost, SslProtocols protocol)
    {
        SslPolicyErrors? serverSaw = null;
        SslPolicyErrors? clientSaw = null;
        string serverChain = "", clientChain = "";
        using TlsPair pair = await TlsPair.Connect();
        var (serverFailure, clientFailure) = await pair.Handshake(
            new SslServerAuthenticationOptions
            {
                ServerCertificate = _server,
                EnabledSslProtocols = protocol,
                ClientCertificateRequired = true,
                CertificateChainPolicy = Trust.Policy(_authority, Trust.ClientAuthentication),
                RemoteCertificateValidationCallback = (_, _, chain, errors) =>
                {
                    serverSaw = errors;
                    serverChain = Trust.Describe(errors, chain);
                    return errors == SslPolicyErrors.None;
                },
            },
            new SslClientAuthenticationOptions
            {
                TargetHost = targetHost,
                EnabledSslProtocols = protocol,
                ClientCertificates = new X509CertificateCollection { _client },
                CertificateChainPolicy = Trust.Policy(_authority, Trust.ServerAuthentication),
                RemoteCertificateValidationCallback = (_, _, chain, errors) =>
                {
                    clientSaw = errors;
                    clientChain = Trust.Describe(errors, chain);
                    return errors == SslPolicyErrors.None;
                },
            });

        Assert.That(clientFailure, Is.Null, $"client handshake failed; the client saw {clientChain}");
        Assert.That(serverFailure, Is.Null, $"server handshake failed; the server saw {serverChain}");
        Assert.That(clientSaw, Is.EqualTo(SslPolicyErrors.None), clientChain);
        Assert.That(serverSaw, Is.EqualTo(SslPolicyErrors.None), serverChain);
        Assert.That(pair.Server.IsMutuallyAuthenticated, Is.True);
        Assert.That(pair.Server.SslProtocol, Is.EqualTo(protocol));
        Assert.That(pair.Server.RemoteCertificate?.Subject, Is.EqualTo(_client.Subject));
        Assert.That(pair.Client.RemoteCertificate?.Subject, Is.EqualTo(_server.Subject));

        byte[] message = Encoding.ASCII.GetBytes("ping");
        await pair.Client.WriteAsync(message);
        await pair.Client.FlushAsync();
        byte[] received = new byte[message.Length];
        await Wait.For(pair.Server.ReadExactlyAsync(received).AsTask(), "the server to read the client's 4 bytes");
        Assert.That(received, Is.EqualTo(message));
    }

    [Test]
    public async Task ClientRejectsAServerCertificateFromAnotherAuthority()
    {
        using X509Certificate2 otherAuthority = DevelopmentCertificates.CreateAuthority("Other CA");
        using X509Certificate2 stranger = DevelopmentCertificates.CreateServer(otherAuthority);
        SslPolicyErrors clientSaw = SslPolicyErrors.None;
        using TlsPair pair = await TlsPair.Connect();
        var (_, clientFailure) = await pair.Handshake(
            new SslServerAuthenticationOptions { ServerCertificate = stranger },
            new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                CertificateChainPolicy = Trust.Policy(_authority, Trust.ServerAuthentication),
                RemoteCertificateValidationCallback = (_, _, _, errors) =>
                {
                    clientSaw = errors;
                    return errors == SslPolicyErrors.None;
                },
            });

        Assert.That(clientFailure, Is.InstanceOf<AuthenticationException>());
        Assert.That(clientSaw, Is.EqualTo(SslPolicyErrors.RemoteCertificateChainErrors));
    }

    [Test]
    public async Task ClientRejectsAServerCertificateForAnotherName()
    {
        SslPolicyErrors clientSaw = SslPolicyErrors.None;
        using TlsPair pair = await TlsPair.Connect();
        var (_, clientFailure) = await pair.Handshake(
            new SslServerAuthenticationOptions { ServerCertificate = _server },
            new SslClientAuthenticationOptions
            {
                TargetHost = "example.com",
                CertificateChainPolicy = Trust.Policy(_authority, Trust.ServerAuthentication),
                RemoteCertificateValidationCallback = (_, _, _, errors) =>
                {
                    clientSaw = errors;
                    return errors == SslPolicyErrors.None;
                },
            });

        Assert.That(clientFailure, Is.InstanceOf<AuthenticationException>());
        Assert.That(clientSaw, Is.EqualTo(SslPolicyErrors.RemoteCertificateNameMismatch));
    }

    [Test]
    public async Task ServerRejectsAnExpiredClientCertificate()
    {
        DateTimeOffset now = DateTimeOffset.UtcNow;
        using X509Certificate2 expired = DevelopmentCertificates.CreateClient(_authority, notBefore: now.AddDays(-3), notAfter: now.AddDays(-1));
        SslPolicyErrors? serverSaw = null;
        string serverChain = "";
        using TlsPair pair = await TlsPair.Connect();
        var (serverFailure, _) = await pair.Handshake(
            new SslServerAuthenticationOptions
            {
                ServerCertificate = _server,
                ClientCertificateRequired = true,
                CertificateChainPolicy = Trust.Policy(_authority, Trust.ClientAuthentication),
                RemoteCertificateValidationCallback = (_, _, chain, errors) =>
                {
                    serverSaw = errors;
                    serverChain = Trust.Describe(errors, chain);
                    return errors == SslPolicyErrors.None;
                },
            },
            new SslClientAuthenticationOptions
            {
                TargetHost = "localhost",
                ClientCertificates = new X509CertificateCollection { expired },
                CertificateChainPolicy = Trust.Policy(_authority, Trust.ServerAuthentication),
            });

        Assert.That(serverFailure, Is.InstanceOf<AuthenticationException>());
        Assert.That(serverSaw, Is.EqualTo(SslPolicyErrors.RemoteCertificateChainErrors), serverChain);
        Assert.That(serverChain, Does.Contain(nameof(X509ChainStatusFlags.NotTimeValid)));
    }
}
