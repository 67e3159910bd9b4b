using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer.Certificates.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Certificates.Tests;

/// <summary>
/// tools/certificates/generate.sh, checked by openssl itself and by .NET: the chain verifies, the PKCS#12 files
/// open with the password, the names and usages are right, and a second run keeps what exists.
/// </summary>
[TestFixture]
public sealed class GenerateScriptTests
{
    private const string Password = "test-password";

    // 1024-bit DH parameters take about a second where the default 2048 can take half a minute; the size is not what is tested.
    private static readonly string[] s_fastOptions = { "--password", Password, "--dh-bits", "1024" };

    private static readonly string[] s_allFiles =
    {
        "ca.key", "ca.crt", "ca.pem", "ca.pfx",
        "server.key", "server.csr", "server.crt", "server.pem", "server.pfx",
        "client.key", "client.csr", "client.crt", "client.pem", "client.pfx",
        "dh.pem",
    };

    private string _openssl = "";
    private TemporaryDirectory _generated = null!;
    private ToolResult _firstRun = null!;

    [OneTimeSetUp]
    public async Task Generate()
    {
        _openssl = ExternalTool.Require("openssl");
        ExternalTool.Require("bash");
        _generated = new TemporaryDirectory();
        _firstRun = await RunScript(_generated.Path, s_fastOptions);
        Assert.That(_firstRun.ExitCode, Is.Zero, $"generate.sh failed: {_firstRun}");
    }

    [OneTimeTearDown]
    public void DeleteGenerated()
    {
        _generated?.Dispose();
    }

    [Test]
    public void WritesEveryFileAndOneLinePerGroup()
    {
        Assert.That(Directory.GetFiles(_generated.Path).Select(Path.GetFileName), Is.EquivalentTo(s_allFiles),
            "the directory should hold exactly the generated files (no scratch directory, serial file or config left behind)");
        Assert.That(Directory.GetDirectories(_generated.Path), Is.Empty);
        string[] lines = _firstRun.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.That(lines, Has.Length.EqualTo(4), _firstRun.Output);
        Assert.That(_firstRun.Error, Is.Empty);
    }

    [Test]
    public void PrivateKeysAreReadableByTheOwnerOnly()
    {
        if (OperatingSystem.IsWindows())
        {
            Assert.Ignore("Unix file modes");
            return;
        }

        foreach (string name in s_allFiles.Where(name => !name.EndsWith(".crt", StringComparison.Ordinal) && !name.EndsWith(".csr", StringComparison.Ordinal)))
        {
            Assert.That(File.GetUnixFileMode(_generated.File(name)), Is.EqualTo(UnixFileMode.UserRead | UnixFileMode.UserWrite), name);
        }
    }

    [Test]
    public async Task OpenSslVerifiesTheChainAndThePurposes()
    {
        ToolResult both = await OpenSsl("verify", "-CAfile", "ca.crt", "server.crt", "client.crt");
        Assert.That(both.ExitCode, Is.Zero, both.ToString());
        Assert.That(both.Output, Does.Contain("server.crt: OK").And.Contain("client.crt: OK"));

        ToolResult server = await OpenSsl("verify", "-purpose", "sslserver", "-CAfile", "ca.crt", "server.crt");
        Assert.That(server.ExitCode, Is.Zero, server.ToString());
        ToolResult client = await OpenSsl("verify", "-purpose", "sslclient", "-CAfile", "ca.crt", "client.crt");
        Assert.That(client.ExitCode, Is.Zero, client.ToString());
        ToolResult crossed = await OpenSsl("verify", "-purpose", "sslserver", "-CAfile", "ca.crt", "client.crt");
        Assert.That(crossed.ExitCode, Is.Not.Zero, "a client certificate must not verify for server use");
    }

    [Test]
    public async Task KeysAreRsa2048SignedWithSha256()
    {
        foreach (string name in new[] { "ca", "server", "client" })
        {
            ToolResult text = await OpenSsl("x509", "-in", $"{name}.crt", "-noout", "-text");
            Assert.That(text.Output, Does.Contain("Public-Key: (2048 bit)"), name);
            Assert.That(text.Output, Does.Contain("Signature Algorithm: sha256WithRSAEncryption"), name);
        }

        ToolResult dh = await OpenSsl("dhparam", "-in", "dh.pem", "-noout", "-text");
        Assert.That(dh.Output, Does.Contain("1024 bit"), dh.ToString());
    }

    [Test]
    public void ServerPfxOpensWithThePasswordAndHoldsThePrivateKey()
    {
        using X509Certificate2 server = X509CertificateLoader.LoadPkcs12FromFile(_generated.File("server.pfx"), Password);
        Assert.That(server.HasPrivateKey, Is.True);
        Assert.That(server.Subject, Is.EqualTo("CN=localhost"));
        using RSA? key = server.GetRSAPrivateKey();
        Assert.That(key?.KeySize, Is.EqualTo(2048));
        Assert.That(() => X509CertificateLoader.LoadPkcs12FromFile(_generated.File("server.pfx"), "wrong"), Throws.InstanceOf<CryptographicException>());

        using X509Certificate2 client = X509CertificateLoader.LoadPkcs12FromFile(_generated.File("client.pfx"), Password);
        Assert.That(client.HasPrivateKey, Is.True);
        using X509Certificate2 authority = X509CertificateLoader.LoadPkcs12FromFile(_generated.File("ca.pfx"), Password);
        Assert.That(authority.HasPrivateKey, Is.True);
    }

    [Test]
    public void ServerCertificateNamesLocalhostAndBothLoopbackAddresses()
    {
        using X509Certificate2 server = X509CertificateLoader.LoadCertificateFromFile(_generated.File("server.crt"));
        X509SubjectAlternativeNameExtension names = server.Extensions.OfType<X509SubjectAlternativeNameExtension>().Single();
        Assert.That(names.EnumerateIPAddresses(), Does.Contain(IPAddress.Parse("127.0.0.1")));
        Assert.That(names.EnumerateIPAddresses(), Does.Contain(IPAddress.IPv6Loopback));
        Assert.That(names.EnumerateDnsNames(), Is.EqualTo(new[] { "localhost" }));
        string?[] usages = server.Extensions.OfType<X509EnhancedKeyUsageExtension>().Single().EnhancedKeyUsages.Cast<Oid>().Select(oid => oid.Value).ToArray();
        Assert.That(usages, Is.EqualTo(new[] { Trust.ServerAuthentication.Value }));
    }

    [Test]
    public void GeneratedCertificatesChainInDotNetAsWell()
    {
        using X509Certificate2 authority = DevelopmentCertificates.LoadAuthority(_generated.Path);
        Assert.That(authority.HasPrivateKey, Is.False);
        using X509Certificate2 server = DevelopmentCertificates.LoadOrCreatePfx(_generated.File("server.pfx"), Password);
        using X509Certificate2 client = DevelopmentCertificates.LoadOrCreatePfx(_generated.File("client.pfx"), Password);
        var serverChain = Trust.Build(server, authority, Trust.ServerAuthentication);
        Assert.That(serverChain.Valid, Is.True, $"server chain: {serverChain.Status}");
        var clientChain = Trust.Build(client, authority, Trust.ClientAuthentication);
        Assert.That(clientChain.Valid, Is.True, $"client chain: {clientChain.Status}");
    }

    [Test]
    public async Task SecondRunWithoutForceLeavesEveryFileUnchanged()
    {
        Dictionary<string, (byte[] Contents, DateTime Written)> before = Snapshot(_generated.Path);
        ToolResult again = await RunScript(_generated.Path, s_fastOptions);
        Assert.That(again.ExitCode, Is.Zero, again.ToString());
        Assert.That(again.Output, Does.Contain("kept"));
        Dictionary<string, (byte[] Contents, DateTime Written)> after = Snapshot(_generated.Path);
        Assert.That(after.Keys, Is.EquivalentTo(before.Keys));
        foreach (string name in before.Keys)
        {
            Assert.That(after[name].Contents, Is.EqualTo(before[name].Contents), $"{name} changed");
            Assert.That(after[name].Written, Is.EqualTo(before[name].Written), $"{name} was rewritten");
        }
    }

    [Test]
    public async Task MissingFileRegeneratesOnlyItsGroupUnderTheSameAuthority()
    {
        using TemporaryDirectory copy = CopyOfGenerated();
        byte[] authority = File.ReadAllBytes(copy.File("ca.crt"));
        byte[] server = File.ReadAllBytes(copy.File("server.crt"));
        byte[] client = File.ReadAllBytes(copy.File("client.crt"));
        File.Delete(copy.File("client.pfx"));

        ToolResult result = await RunScript(copy.Path, s_fastOptions);
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Assert.That(File.ReadAllBytes(copy.File("ca.crt")), Is.EqualTo(authority));
        Assert.That(File.ReadAllBytes(copy.File("server.crt")), Is.EqualTo(server));
        Assert.That(File.ReadAllBytes(copy.File("client.crt")), Is.Not.EqualTo(client));
        Assert.That(copy.File("client.pfx"), Does.Exist);
        ToolResult verify = await OpenSslIn(copy.Path, "verify", "-CAfile", "ca.crt", "server.crt", "client.crt");
        Assert.That(verify.ExitCode, Is.Zero, verify.ToString());
    }

    [Test]
    public async Task ForceRegeneratesEverything()
    {
        using TemporaryDirectory copy = CopyOfGenerated();
        Dictionary<string, (byte[] Contents, DateTime Written)> before = Snapshot(copy.Path);
        ToolResult result = await RunScript(copy.Path, s_fastOptions.Append("--force"));
        Assert.That(result.ExitCode, Is.Zero, result.ToString());
        Dictionary<string, (byte[] Contents, DateTime Written)> after = Snapshot(copy.Path);
        foreach (string name in s_allFiles)
        {
            Assert.That(after[name].Contents, Is.Not.EqualTo(before[name].Contents), $"{name} was not regenerated");
        }
    }

    [TestCase("--days", "soon", "--days must be a positive integer")]
    [TestCase("--bogus", null, "unknown option '--bogus'")]
    [TestCase("--password", null, "option --password needs a value")]
    public async Task BadOptionsFailWithAClearMessage(string option, string? value, string message)
    {
        using TemporaryDirectory target = new();
        List<string> arguments = new() { option };
        if (value is not null)
        {
            arguments.Add(value);
        }

        ToolResult result = await RunScript(target.Path, arguments);
        Assert.That(result.ExitCode, Is.Not.Zero);
        Assert.That(result.Error, Does.Contain("generate.sh: error: " + message));
        Assert.That(Directory.GetFileSystemEntries(target.Path), Is.Empty, "nothing should be written after a bad option");
    }

    [Test]
    public async Task OpenSslFailureStopsTheScriptAndShowsWhatOpenSslSaid()
    {
        using TemporaryDirectory target = new();
        ToolResult result = await RunScript(target.Path, new[] { "--dh-bits", "7" });
        Assert.That(result.ExitCode, Is.Not.Zero);
        Assert.That(result.Error, Does.Contain("Diffie-Hellman parameters failed"));
        Assert.That(target.File("dh.pem"), Does.Not.Exist);
        Assert.That(Directory.GetDirectories(target.Path), Is.Empty, "the scratch directory should be removed on failure");
    }

    /// <summary>openssl s_client, a peer nobody here wrote, completes mutual TLS with an SslStream server using the generated files.</summary>
    [Test]
    public async Task OpenSslClientAndSslStreamServerAuthenticateEachOther()
    {
        using X509Certificate2 serverCertificate = DevelopmentCertificates.LoadOrCreatePfx(_generated.File("server.pfx"), Password);
        using X509Certificate2 authority = DevelopmentCertificates.LoadAuthority(_generated.Path);
        using Socket listener = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1);
        int port = ((IPEndPoint)listener.LocalEndPoint!).Port;

        Task<X509Certificate?> serving = Serve(listener, serverCertificate, authority);
        ToolResult client = await OpenSsl(
            "s_client", "-connect", $"127.0.0.1:{port}", "-servername", "localhost",
            "-CAfile", "ca.crt", "-verify_return_error", "-verify_hostname", "localhost",
            "-cert", "client.crt", "-key", "client.key", "-brief");
        Assert.That(client.ExitCode, Is.Zero, client.ToString());
        Assert.That(client.Error, Does.Contain("Verification: OK"), client.ToString());
        X509Certificate? seen = await Wait.For(serving, "the SslStream server to finish its handshake with openssl s_client");
        Assert.That(seen?.Subject, Is.EqualTo("CN=NetCoreServer Test Client"));
    }

    private static async Task<X509Certificate?> Serve(Socket listener, X509Certificate2 certificate, X509Certificate2 authority)
    {
        using Socket accepted = await listener.AcceptAsync();
        using SslStream stream = new(new NetworkStream(accepted, ownsSocket: false));
        await stream.AuthenticateAsServerAsync(new SslServerAuthenticationOptions
        {
            ServerCertificate = certificate,
            ClientCertificateRequired = true,
            CertificateChainPolicy = Trust.Policy(authority, Trust.ClientAuthentication),
            RemoteCertificateValidationCallback = (_, _, _, errors) => errors == SslPolicyErrors.None,
        });
        X509Certificate? remote = stream.RemoteCertificate;
        // s_client sends nothing (its stdin is empty) and closes; wait for that before closing our end.
        byte[] buffer = new byte[1];
        try
        {
            int read = await stream.ReadAsync(buffer);
            Assert.That(read, Is.Zero, "s_client sent data although its stdin was empty");
        }
        catch (IOException)
        {
            // s_client may close without a TLS close_notify.
        }

        return remote;
    }

    private async Task<ToolResult> RunScript(string directory, IEnumerable<string> options)
    {
        string[] arguments = new[] { Repository.GenerateScript, "--out", directory }.Concat(options).ToArray();
        return await ExternalTool.Run(ExternalTool.Require("bash"), arguments, TimeSpan.FromMinutes(2));
    }

    private Task<ToolResult> OpenSsl(params string[] arguments) => OpenSslIn(_generated.Path, arguments);

    private async Task<ToolResult> OpenSslIn(string directory, params string[] arguments)
    {
        // openssl resolves relative file names against its working directory; absolute paths keep it independent.
        string[] absolute = arguments.Select(argument => File.Exists(Path.Combine(directory, argument)) ? Path.Combine(directory, argument) : argument).ToArray();
        return await ExternalTool.Run(_openssl, absolute, TimeSpan.FromSeconds(30));
    }

    private TemporaryDirectory CopyOfGenerated()
    {
        TemporaryDirectory copy = new();
        foreach (string file in Directory.GetFiles(_generated.Path))
        {
            File.Copy(file, copy.File(Path.GetFileName(file)));
        }

        return copy;
    }

    private static Dictionary<string, (byte[] Contents, DateTime Written)> Snapshot(string directory)
    {
        return Directory.GetFiles(directory).ToDictionary(
            file => Path.GetFileName(file),
            file => (File.ReadAllBytes(file), File.GetLastWriteTimeUtc(file)));
    }
}
