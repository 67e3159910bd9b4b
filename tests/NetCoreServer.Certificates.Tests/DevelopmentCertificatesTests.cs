using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer.Certificates.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Certificates.Tests;

/// <summary>Certificates created in-process: chains, keys, usages, names and validity.</summary>
[TestFixture]
public sealed class DevelopmentCertificatesTests
{
    private const string Sha256WithRsa = "1.2.840.113549.1.1.11";

    private X509Certificate2 _authority = null!;

    [OneTimeSetUp]
    public void CreateAuthority()
    {
        _authority = DevelopmentCertificates.CreateAuthority();
    }

    [OneTimeTearDown]
    public void DisposeAuthority()
    {
        _authority.Dispose();
    }

    [Test]
    public void AuthorityIsACertificateAuthorityWithItsPrivateKey()
    {
        Assert.That(_authority.HasPrivateKey, Is.True);
        Assert.That(_authority.Subject, Is.EqualTo("CN=NetCoreServer Test CA"));
        Assert.That(_authority.Issuer, Is.EqualTo(_authority.Subject));
        X509BasicConstraintsExtension constraints = _authority.Extensions.OfType<X509BasicConstraintsExtension>().Single();
        Assert.That(constraints.CertificateAuthority, Is.True);
        Assert.That(constraints.Critical, Is.True);
        X509KeyUsageExtension usage = _authority.Extensions.OfType<X509KeyUsageExtension>().Single();
        Assert.That(usage.KeyUsages.HasFlag(X509KeyUsageFlags.KeyCertSign), Is.True);
        Assert.That(_authority.SignatureAlgorithm.Value, Is.EqualTo(Sha256WithRsa));
        using RSA? key = _authority.GetRSAPrivateKey();
        Assert.That(key?.KeySize, Is.EqualTo(2048));
    }

    [Test]
    public void AuthorityLifetimeIsHonoured()
    {
        using X509Certificate2 authority = DevelopmentCertificates.CreateAuthority("Short CA", TimeSpan.FromDays(2));
        Assert.That(authority.Subject, Is.EqualTo("CN=Short CA"));
        Assert.That(authority.NotAfter.ToUniversalTime(), Is.EqualTo(DateTime.UtcNow.AddDays(2)).Within(TimeSpan.FromMinutes(1)));
        Assert.That(authority.NotBefore.ToUniversalTime(), Is.LessThan(DateTime.UtcNow.AddDays(-1)));
    }

    [Test]
    public void ServerCertificateChainsToTheAuthority()
    {
        using X509Certificate2 server = DevelopmentCertificates.CreateServer(_authority);
        var chain = Trust.Build(server, _authority, Trust.ServerAuthentication);
        Assert.That(chain.Valid, Is.True, $"chain status: {chain.Status}");
        Assert.That(chain.Path, Is.EqualTo(new[] { server.Thumbprint, _authority.Thumbprint }));
    }

    [Test]
    public void ServerCertificateHasPrivateKeyServerUsageAndLoopbackNames()
    {
        using X509Certificate2 server = DevelopmentCertificates.CreateServer(_authority);
        Assert.That(server.HasPrivateKey, Is.True);
        using (RSA? key = server.GetRSAPrivateKey())
        {
            Assert.That(key?.KeySize, Is.EqualTo(2048));
        }

        Assert.That(server.Subject, Is.EqualTo("CN=localhost"));
        Assert.That(server.Issuer, Is.EqualTo(_authority.Subject));
        Assert.That(server.SignatureAlgorithm.Value, Is.EqualTo(Sha256WithRsa));
        Assert.That(EnhancedUsages(server), Is.EqualTo(new[] { Trust.ServerAuthentication.Value }));
        X509SubjectAlternativeNameExtension names = server.Extensions.OfType<X509SubjectAlternativeNameExtension>().Single();
        Assert.That(names.EnumerateDnsNames(), Is.EquivalentTo(new[] { "localhost" }));
        Assert.That(names.EnumerateIPAddresses(), Is.EquivalentTo(new[] { IPAddress.Loopback, IPAddress.IPv6Loopback }));
        Assert.That(server.Extensions.OfType<X509BasicConstraintsExtension>().Single().CertificateAuthority, Is.False);
    }

    [Test]
    public void ServerCertificateNamesItsCommonNameToo()
    {
        using X509Certificate2 server = DevelopmentCertificates.CreateServer(_authority, "echo.test");
        X509SubjectAlternativeNameExtension names = server.Extensions.OfType<X509SubjectAlternativeNameExtension>().Single();
        Assert.That(names.EnumerateDnsNames(), Is.EquivalentTo(new[] { "localhost", "echo.test" }));
        Assert.That(server.MatchesHostname("echo.test"), Is.True);
        Assert.That(server.MatchesHostname("127.0.0.1"), Is.True);
    }

    [Test]
    public void ClientCertificateChainsToTheAuthorityForClientUsageOnly()
    {
        using X509Certificate2 client = DevelopmentCertificates.CreateClient(_authority);
        Assert.That(client.HasPrivateKey, Is.True);
        Assert.That(client.Subject, Is.EqualTo("CN=NetCoreServer Test Client"));
        Assert.That(EnhancedUsages(client), Is.EqualTo(new[] { Trust.ClientAuthentication.Value }));
        Assert.That(client.Extensions.OfType<X509SubjectAlternativeNameExtension>(), Is.Empty);

        var asClient = Trust.Build(client, _authority, Trust.ClientAuthentication);
        Assert.That(asClient.Valid, Is.True, $"chain status: {asClient.Status}");
        var asServer = Trust.Build(client, _authority, Trust.ServerAuthentication);
        Assert.That(asServer.Valid, Is.False);
        Assert.That(asServer.Status.HasFlag(X509ChainStatusFlags.NotValidForUsage), Is.True, $"chain status: {asServer.Status}");
    }

    [Test]
    public void ExpiredCertificateIsReportedExpiredByTheChain()
    {
        DateTimeOffset now = DateTimeOffset.UtcNow;
        using X509Certificate2 expired = DevelopmentCertificates.CreateServer(_authority, notBefore: now.AddDays(-3), notAfter: now.AddDays(-1));
        Assert.That(expired.NotAfter, Is.LessThan(DateTime.Now));
        var chain = Trust.Build(expired, _authority, Trust.ServerAuthentication);
        Assert.That(chain.Valid, Is.False);
        Assert.That(chain.Status.HasFlag(X509ChainStatusFlags.NotTimeValid), Is.True, $"chain status: {chain.Status}");

        var earlier = Trust.Build(expired, _authority, Trust.ServerAuthentication, at: now.AddDays(-2).LocalDateTime);
        Assert.That(earlier.Valid, Is.True, $"chain status two days ago: {earlier.Status}");
    }

    [Test]
    public void CertificateFromAnotherAuthorityDoesNotChain()
    {
        using X509Certificate2 other = DevelopmentCertificates.CreateAuthority("Other CA");
        using X509Certificate2 server = DevelopmentCertificates.CreateServer(other);
        var chain = Trust.Build(server, _authority, Trust.ServerAuthentication);
        Assert.That(chain.Valid, Is.False);
        Assert.That(chain.Status & (X509ChainStatusFlags.PartialChain | X509ChainStatusFlags.UntrustedRoot), Is.Not.EqualTo(X509ChainStatusFlags.NoError),
            $"chain status: {chain.Status}");
    }

    [Test]
    public void SelfSignedCertificateServesBothEndsAndTrustsItself()
    {
        using X509Certificate2 certificate = DevelopmentCertificates.CreateSelfSigned("self.test");
        Assert.That(certificate.HasPrivateKey, Is.True);
        Assert.That(certificate.Subject, Is.EqualTo(certificate.Issuer));
        Assert.That(EnhancedUsages(certificate), Is.EquivalentTo(new[] { Trust.ServerAuthentication.Value, Trust.ClientAuthentication.Value }));
        Assert.That(certificate.MatchesHostname("self.test"), Is.True);
        Assert.That(certificate.MatchesHostname("localhost"), Is.True);
        using X509Certificate2 publicOnly = X509CertificateLoader.LoadCertificate(certificate.RawData);
        var chain = Trust.Build(certificate, publicOnly, Trust.ServerAuthentication);
        Assert.That(chain.Valid, Is.True, $"chain status: {chain.Status}");
    }

    [Test]
    public void ValidityOutsideTheAuthorityIsRejected()
    {
        using X509Certificate2 authority = DevelopmentCertificates.CreateAuthority(lifetime: TimeSpan.FromDays(1));
        DateTimeOffset now = DateTimeOffset.UtcNow;
        Assert.That(() => DevelopmentCertificates.CreateServer(authority, notAfter: now.AddDays(30)),
            Throws.TypeOf<ArgumentOutOfRangeException>().With.Property("ParamName").EqualTo("notAfter"));
        Assert.That(() => DevelopmentCertificates.CreateServer(authority, notBefore: now.AddDays(-30)),
            Throws.TypeOf<ArgumentOutOfRangeException>().With.Property("ParamName").EqualTo("notBefore"));
        Assert.That(() => DevelopmentCertificates.CreateClient(authority, notBefore: now, notAfter: now.AddHours(-1)),
            Throws.TypeOf<ArgumentOutOfRangeException>());
    }

    [Test]
    public void DefaultValidityIsClampedToTheAuthority()
    {
        using X509Certificate2 authority = DevelopmentCertificates.CreateAuthority(lifetime: TimeSpan.FromDays(1));
        using X509Certificate2 server = DevelopmentCertificates.CreateServer(authority);
        Assert.That(server.NotAfter, Is.LessThanOrEqualTo(authority.NotAfter));
        Assert.That(server.NotBefore, Is.GreaterThanOrEqualTo(authority.NotBefore));
        Assert.That(server.NotBefore, Is.LessThan(DateTime.Now));
    }

    [Test]
    public void AuthorityWithoutPrivateKeyCannotSign()
    {
        using X509Certificate2 publicOnly = X509CertificateLoader.LoadCertificate(_authority.RawData);
        Assert.That(() => DevelopmentCertificates.CreateServer(publicOnly),
            Throws.ArgumentException.With.Property("ParamName").EqualTo("authority"));
    }

    [Test]
    public void SerialNumbersAreUniqueAndPositive()
    {
        using X509Certificate2 first = DevelopmentCertificates.CreateClient(_authority);
        using X509Certificate2 second = DevelopmentCertificates.CreateClient(_authority);
        Assert.That(first.SerialNumber, Is.Not.EqualTo(second.SerialNumber));
        Assert.That(first.GetSerialNumber()[^1] & 0x80, Is.Zero, "the serial's most significant byte (last, little-endian) must not set the sign bit");
    }

    [Test]
    public void PrivateKeySignsWhatThePublicKeyVerifies()
    {
        using X509Certificate2 server = DevelopmentCertificates.CreateServer(_authority);
        byte[] data = RandomNumberGenerator.GetBytes(64);
        using RSA privateKey = server.GetRSAPrivateKey()!;
        using RSA publicKey = server.GetRSAPublicKey()!;
        byte[] signature = privateKey.SignData(data, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        Assert.That(publicKey.VerifyData(data, signature, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1), Is.True);
    }

    [Test]
    public async Task OpenSslVerifiesInProcessCertificatesForTheirPurposes()
    {
        string openssl = ExternalTool.Require("openssl");
        using TemporaryDirectory directory = new();
        using X509Certificate2 server = DevelopmentCertificates.CreateServer(_authority);
        using X509Certificate2 client = DevelopmentCertificates.CreateClient(_authority);
        File.WriteAllText(directory.File("ca.crt"), _authority.ExportCertificatePem());
        File.WriteAllText(directory.File("server.crt"), server.ExportCertificatePem());
        File.WriteAllText(directory.File("client.crt"), client.ExportCertificatePem());

        ToolResult asServer = await ExternalTool.Run(openssl,
            new[] { "verify", "-purpose", "sslserver", "-verify_hostname", "localhost", "-CAfile", directory.File("ca.crt"), directory.File("server.crt") },
            TimeSpan.FromSeconds(30));
        Assert.That(asServer.ExitCode, Is.Zero, asServer.ToString());
        ToolResult asClient = await ExternalTool.Run(openssl,
            new[] { "verify", "-purpose", "sslclient", "-CAfile", directory.File("ca.crt"), directory.File("client.crt") },
            TimeSpan.FromSeconds(30));
        Assert.That(asClient.ExitCode, Is.Zero, asClient.ToString());
    }

    private static string?[] EnhancedUsages(X509Certificate2 certificate)
    {
        return certificate.Extensions.OfType<X509EnhancedKeyUsageExtension>().Single()
            .EnhancedKeyUsages.Cast<Oid>().Select(oid => oid.Value).ToArray();
    }
}
