using System;
using System.IO;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Certificates;

public static partial class DevelopmentCertificates
{
    private const string AuthorityPfxName = "ca.pfx";
    private const string AuthorityCertificateName = "ca.crt";
    private const string ClientPfxName = "client.pfx";

    /// <summary>
    /// Loads a PKCS#12 certificate, creating it first when the file does not exist: what examples and benchmarks
    /// call to get a certificate without a setup step.
    /// </summary>
    /// <remarks>
    /// <para>When <paramref name="path"/> is missing and its file name is <c>ca.pfx</c>, <c>server.pfx</c> or
    /// <c>client.pfx</c>, <c>openssl</c> is on PATH (and the OS is not Windows), this runs
    /// <c>tools/certificates/generate.sh --out &lt;directory&gt; --no-dh</c>, found by walking up from this
    /// assembly's directory (then the current directory) to the repository root that holds <c>NetCoreServer.sln</c>;
    /// the directory then holds the script's full set of files.</para>
    /// <para>Otherwise, or when the script is not found or fails, the certificate is created in-process: a file
    /// named <c>client.pfx</c> gets a client certificate, <c>ca.pfx</c> an authority, any other name a
    /// <c>localhost</c> server certificate. Leaves are signed by the directory's <c>ca.pfx</c>, which is created
    /// (with <c>ca.crt</c>) when missing, so a server and a client created one after the other share an authority.</para>
    /// <para>Concurrent callers, in this process or others, creating files in one directory wait for each other.</para>
    /// </remarks>
    /// <param name="path">The PKCS#12 file, for example <c>tools/certificates/server.pfx</c>.</param>
    /// <param name="password">The file's password; defaults to <see cref="DefaultPassword"/>.</param>
    /// <param name="useOpenSsl">False to skip the script and always create missing files in-process.</param>
    /// <param name="log">Receives one line per action taken (script output, fallbacks); null for none.</param>
    /// <returns>The certificate with its private key.</returns>
    /// <exception cref="CryptographicException">The file (or the directory's <c>ca.pfx</c>) cannot be opened
    /// with <paramref name="password"/>.</exception>
    public static X509Certificate2 LoadOrCreatePfx(
        string path,
        string password = DefaultPassword,
        bool useOpenSsl = true,
        TextWriter? log = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentNullException.ThrowIfNull(password);
        string fullPath = Path.GetFullPath(path);
        if (File.Exists(fullPath))
        {
            return LoadPfx(fullPath, password);
        }

        string directory = Path.GetDirectoryName(fullPath)
            ?? throw new ArgumentException($"'{path}' names no file.", nameof(path));
        Directory.CreateDirectory(directory);
        using (DirectoryLock.Acquire(directory))
        {
            // Another caller may have created it while we waited.
            if (!File.Exists(fullPath))
            {
                string fileName = Path.GetFileName(fullPath);
                bool created = useOpenSsl
                    && GenerateScript.Produces(fileName)
                    && GenerateScript.TryRun(directory, password, log)
                    && File.Exists(fullPath);
                if (!created)
                {
                    CreateInProcess(fullPath, password, log);
                }
            }
        }

        return LoadPfx(fullPath, password);
    }

    /// <summary>Loads the authority certificate <c>ca.crt</c> (PEM or DER, no private key) from <paramref name="directory"/>,
    /// to validate peers' certificates against.</summary>
    /// <param name="directory">The directory the certificates were generated into.</param>
    /// <returns>The authority certificate.</returns>
    /// <exception cref="FileNotFoundException"><c>ca.crt</c> does not exist there.</exception>
    public static X509Certificate2 LoadAuthority(string directory)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        string path = Path.Combine(Path.GetFullPath(directory), AuthorityCertificateName);
        if (!File.Exists(path))
        {
            throw new FileNotFoundException(
                $"No authority certificate at '{path}'; run tools/certificates/generate.sh or LoadOrCreatePfx first.", path);
        }

        return X509CertificateLoader.LoadCertificateFromFile(path);
    }

    private static X509Certificate2 LoadPfx(string path, string password)
    {
        return X509CertificateLoader.LoadPkcs12FromFile(path, password, X509KeyStorageFlags.Exportable);
    }

    private static void CreateInProcess(string path, string password, TextWriter? log)
    {
        string directory = Path.GetDirectoryName(path)!;
        string fileName = Path.GetFileName(path);
        string authorityPath = Path.Combine(directory, AuthorityPfxName);
        if (string.Equals(fileName, AuthorityPfxName, StringComparison.Ordinal))
        {
            using X509Certificate2 authority = CreateAuthority();
            WriteAuthority(directory, authority, password);
            log?.WriteLine($"Created {path} (in-process authority)");
            return;
        }

        using X509Certificate2 issuer = File.Exists(authorityPath) ? LoadPfx(authorityPath, password) : CreateAuthority();
        if (!issuer.HasPrivateKey)
        {
            throw new CryptographicException($"'{authorityPath}' holds no private key, so it cannot sign '{path}'.");
        }

        if (!File.Exists(authorityPath))
        {
            WriteAuthority(directory, issuer, password);
            log?.WriteLine($"Created {authorityPath} and {AuthorityCertificateName} (in-process authority)");
        }

        bool client = string.Equals(fileName, ClientPfxName, StringComparison.Ordinal);
        using X509Certificate2 leaf = client ? CreateClient(issuer) : CreateServer(issuer);
        WriteFile(path, leaf.ExportPkcs12(Pkcs12ExportPbeParameters.Pbes2Aes256Sha256, password), secret: true);
        log?.WriteLine($"Created {path} (in-process {(client ? "client" : "server")} certificate)");
    }

    private static void WriteAuthority(string directory, X509Certificate2 authority, string password)
    {
        // The certificate first: a reader that finds ca.pfx may expect ca.crt beside it.
        WriteFile(Path.Combine(directory, AuthorityCertificateName),
            System.Text.Encoding.ASCII.GetBytes(authority.ExportCertificatePem() + "\n"), secret: false);
        WriteFile(Path.Combine(directory, AuthorityPfxName),
            authority.ExportPkcs12(Pkcs12ExportPbeParameters.Pbes2Aes256Sha256, password), secret: true);
    }

    // Writes beside the target and renames, so no reader ever sees a partial file; files holding a key are
    // private to the owner, as generate.sh leaves them.
    private static void WriteFile(string path, byte[] contents, bool secret)
    {
        string temporary = $"{path}.{Environment.ProcessId}.{Guid.NewGuid():N}.tmp";
        FileStreamOptions options = new() { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = secret
                ? UnixFileMode.UserRead | UnixFileMode.UserWrite
                : UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead | UnixFileMode.OtherRead;
        }

        try
        {
            using (FileStream stream = new(temporary, options))
            {
                stream.Write(contents);
            }

            File.Move(temporary, path, overwrite: true);
        }
        catch
        {
            File.Delete(temporary);
            throw;
        }
        finally
        {
            if (secret)
            {
                CryptographicOperations.ZeroMemory(contents);
            }
        }
    }
}
