using System;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer.Certificates.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Certificates.Tests;

/// <summary>LoadOrCreatePfx: the one call examples and benchmarks make, through openssl or in-process.</summary>
[TestFixture]
public sealed class LoadOrCreatePfxTests
{
    [Test]
    public void InProcessServerAndClientShareOneAuthorityWrittenBesideThem()
    {
        using TemporaryDirectory directory = new();
        StringWriter log = new();
        using X509Certificate2 server = DevelopmentCertificates.LoadOrCreatePfx(directory.File("server.pfx"), useOpenSsl: false, log: log);
        using X509Certificate2 client = DevelopmentCertificates.LoadOrCreatePfx(directory.File("client.pfx"), useOpenSsl: false, log: log);

        Assert.That(Directory.GetFiles(directory.Path).Select(Path.GetFileName), Is.EquivalentTo(new[] { "ca.crt", "ca.pfx", "server.pfx", "client.pfx" }));
        Assert.That(server.HasPrivateKey && client.HasPrivateKey, Is.True);
        using X509Certificate2 authority = DevelopmentCertificates.LoadAuthority(directory.Path);
        var serverChain = Trust.Build(server, authority, Trust.ServerAuthentication);
        Assert.That(serverChain.Valid, Is.True, $"server chain: {serverChain.Status}");
        var clientChain = Trust.Build(client, authority, Trust.ClientAuthentication);
        Assert.That(clientChain.Valid, Is.True, $"client chain: {clientChain.Status}");
        Assert.That(log.ToString(), Does.Contain("in-process server certificate").And.Contain("in-process client certificate"));
    }

    [Test]
    public void ExistingFileIsLoadedNotReplaced()
    {
        using TemporaryDirectory directory = new();
        using X509Certificate2 first = DevelopmentCertificates.LoadOrCreatePfx(directory.File("server.pfx"), "secret", useOpenSsl: false);
        DateTime written = File.GetLastWriteTimeUtc(directory.File("server.pfx"));
        using X509Certificate2 second = DevelopmentCertificates.LoadOrCreatePfx(directory.File("server.pfx"), "secret", useOpenSsl: false);
        Assert.That(second.Thumbprint, Is.EqualTo(first.Thumbprint));
        Assert.That(second.HasPrivateKey, Is.True);
        Assert.That(File.GetLastWriteTimeUtc(directory.File("server.pfx")), Is.EqualTo(written));
        Assert.That(() => DevelopmentCertificates.LoadOrCreatePfx(directory.File("server.pfx"), "wrong"), Throws.InstanceOf<CryptographicException>());
    }

    [Test]
    public void AnyOtherFileNameGetsALocalhostServerCertificate()
    {
        using TemporaryDirectory directory = new();
        using X509Certificate2 certificate = DevelopmentCertificates.LoadOrCreatePfx(directory.File("echo.pfx"));
        Assert.That(certificate.Subject, Is.EqualTo("CN=localhost"));
        Assert.That(certificate.MatchesHostname("127.0.0.1"), Is.True);
        Assert.That(directory.File("ca.crt"), Does.Exist);
    }

    [Test]
    public void FilesHoldingAKeyAreReadableByTheOwnerOnly()
    {
        if (OperatingSystem.IsWindows())
        {
            Assert.Ignore("Unix file modes");
            return;
        }

        using TemporaryDirectory directory = new();
        using X509Certificate2 server = DevelopmentCertificates.LoadOrCreatePfx(directory.File("server.pfx"), useOpenSsl: false);
        UnixFileMode owner = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        Assert.That(File.GetUnixFileMode(directory.File("server.pfx")), Is.EqualTo(owner));
        Assert.That(File.GetUnixFileMode(directory.File("ca.pfx")), Is.EqualTo(owner));
        Assert.That(File.GetUnixFileMode(directory.File("ca.crt")) & UnixFileMode.OtherRead, Is.EqualTo(UnixFileMode.OtherRead));
    }

    [Test]
    public async Task ConcurrentCallersAgreeOnOneAuthorityAndOneServerCertificate()
    {
        using TemporaryDirectory directory = new();
        Task<X509Certificate2>[] callers = Enumerable.Range(0, 8)
            .Select(i => Task.Run(() => DevelopmentCertificates.LoadOrCreatePfx(directory.File(i % 2 == 0 ? "server.pfx" : "client.pfx"), useOpenSsl: false)))
            .ToArray();
        X509Certificate2[] certificates = await Wait.For(Task.WhenAll(callers), "eight concurrent LoadOrCreatePfx calls to return");
        try
        {
            Assert.That(certificates.Where((_, i) => i % 2 == 0).Select(c => c.Thumbprint).Distinct().Count(), Is.EqualTo(1), "server.pfx was created more than once");
            Assert.That(certificates.Where((_, i) => i % 2 == 1).Select(c => c.Thumbprint).Distinct().Count(), Is.EqualTo(1), "client.pfx was created more than once");
            using X509Certificate2 authority = DevelopmentCertificates.LoadAuthority(directory.Path);
            foreach (X509Certificate2 certificate in certificates)
            {
                Assert.That(Trust.Build(certificate, authority).Valid, Is.True, $"{certificate.Subject} does not chain to ca.crt");
            }

            Assert.That(Directory.GetFiles(directory.Path, "*.tmp"), Is.Empty);
        }
        finally
        {
            foreach (X509Certificate2 certificate in certificates)
            {
                certificate.Dispose();
            }
        }
    }

    [Test]
    public void WithOpenSslTheScriptWritesItsFilesExceptDiffieHellman()
    {
        ExternalTool.Require("openssl");
        ExternalTool.Require("bash");
        using TemporaryDirectory directory = new();
        StringWriter log = new();
        using X509Certificate2 client = DevelopmentCertificates.LoadOrCreatePfx(directory.File("client.pfx"), "secret", log: log);

        Assert.That(client.HasPrivateKey, Is.True);
        Assert.That(client.Subject, Is.EqualTo("CN=NetCoreServer Test Client"));
        Assert.That(directory.File("server.key"), Does.Exist, $"generate.sh did not run; log: {log}");
        Assert.That(directory.File("dh.pem"), Does.Not.Exist, "LoadOrCreatePfx passes --no-dh");
        Assert.That(log.ToString(), Does.Contain("client:"));
        using X509Certificate2 server = X509CertificateLoader.LoadPkcs12FromFile(directory.File("server.pfx"), "secret");
        using X509Certificate2 authority = DevelopmentCertificates.LoadAuthority(directory.Path);
        Assert.That(Trust.Build(server, authority, Trust.ServerAuthentication).Valid, Is.True);
        Assert.That(Trust.Build(client, authority, Trust.ClientAuthentication).Valid, Is.True);
    }

    [Test]
    public void LoadAuthorityNamesTheMissingFile()
    {
        using TemporaryDirectory directory = new();
        Assert.That(() => DevelopmentCertificates.LoadAuthority(directory.Path),
            Throws.InstanceOf<FileNotFoundException>().With.Message.Contains("ca.crt"));
    }
}
