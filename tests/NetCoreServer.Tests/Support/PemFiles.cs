using System;
using System.IO;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Tests.Support;

/// <summary>Writes in-process certificates as PEM files for external TLS peers (openssl), in a temp folder removed on dispose.</summary>
internal sealed class PemFiles : IDisposable
{
    public PemFiles()
    {
        Directory = Path.Combine(Path.GetTempPath(), "ncs-pem-" + Guid.NewGuid().ToString("N"));
        System.IO.Directory.CreateDirectory(Directory);
    }

    public string Directory { get; }

    /// <summary>Writes NAME.crt (and NAME.key when the certificate has an RSA key); returns the certificate path.</summary>
    public string Write(string name, X509Certificate2 certificate)
    {
        var crt = Path.Combine(Directory, name + ".crt");
        File.WriteAllText(crt, certificate.ExportCertificatePem());
        using var key = certificate.GetRSAPrivateKey();
        if (key != null)
            File.WriteAllText(Path.Combine(Directory, name + ".key"), key.ExportPkcs8PrivateKeyPem());
        return crt;
    }

    public string Key(string name) => Path.Combine(Directory, name + ".key");

    public void Dispose()
    {
        try
        {
            System.IO.Directory.Delete(Directory, recursive: true);
        }
        catch (IOException)
        {
        }
    }
}
