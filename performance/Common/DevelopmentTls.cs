using System;
using System.IO;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Certificates;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// The certificates and TLS settings of the ssl benchmarks: the server loads <c>tools/certificates/server.pfx</c>
/// (created when missing), clients trust only <c>tools/certificates/ca.crt</c>. Both paths are found from the
/// repository root, the folder holding <c>NetCoreServer.sln</c> above the program (or the current directory).
/// </summary>
public static class DevelopmentTls
{
    /// <summary>The development certificates' password: <c>qwerty</c>.</summary>
    public const string DefaultPassword = DevelopmentCertificates.DefaultPassword;

    /// <summary>What ssl servers accept: TLS 1.2 and 1.3.</summary>
    public const SslProtocols ServerProtocols = SslProtocols.Tls12 | SslProtocols.Tls13;

    /// <summary>What ssl clients offer: the platform's choice (None), so the newest version both sides know wins.</summary>
    public const SslProtocols ClientProtocols = SslProtocols.None;

    private const string SolutionFileName = "NetCoreServer.sln";

    // id-kp-serverAuth (RFC 5280, 4.2.1.12): the authority may sign client certificates too, which must not pass as servers.
    private static readonly Oid s_serverAuthentication = new("1.3.6.1.5.5.7.3.1");

    /// <summary>
    /// Loads the server certificate from <paramref name="path"/>, or from <c>tools/certificates/server.pfx</c> when it is
    /// null. Only that default is created when missing (with its authority, <c>ca.crt</c>, which clients trust), and what
    /// is done is logged to stderr; a path given that does not exist is an error, not a new certificate nobody trusts.
    /// </summary>
    /// <exception cref="FileNotFoundException"><paramref name="path"/> does not exist.</exception>
    /// <exception cref="DirectoryNotFoundException">No path was given and the repository root cannot be found.</exception>
    /// <exception cref="CryptographicException">The file cannot be opened with <paramref name="password"/>.</exception>
    public static X509Certificate2 LoadServerCertificate(string? path, string password)
    {
        if (path is null)
            return DevelopmentCertificates.LoadOrCreatePfx(Path.Combine(CertificateDirectory(), "server.pfx"), password, log: Console.Error);
        if (!File.Exists(path))
            throw new FileNotFoundException($"No certificate at '{Path.GetFullPath(path)}'.", path);
        return X509CertificateLoader.LoadPkcs12FromFile(path, password);
    }

    /// <summary>
    /// A validation callback that accepts a server certificate only when it chains to the authority in
    /// <paramref name="path"/> (default <c>tools/certificates/ca.crt</c>), is meant for servers and names the host
    /// connected to. The authority is trusted for this callback alone, not added to any system store.
    /// </summary>
    /// <exception cref="FileNotFoundException">The authority certificate does not exist (start an ssl server once to create it).</exception>
    public static RemoteCertificateValidationCallback TrustAuthority(string? path)
    {
        X509Certificate2 authority;
        if (path is null)
        {
            authority = DevelopmentCertificates.LoadAuthority(CertificateDirectory());
        }
        else
        {
            if (!File.Exists(path))
                throw new FileNotFoundException($"No authority certificate at '{Path.GetFullPath(path)}'.", path);
            authority = X509CertificateLoader.LoadCertificateFromFile(path);
        }
        return (_, certificate, chain, errors) => IsIssuedBy(authority, certificate, chain, errors);
    }

    /// <summary>The repository's <c>tools/certificates</c> folder.</summary>
    /// <exception cref="DirectoryNotFoundException">No folder above the program or the current directory holds <c>NetCoreServer.sln</c>.</exception>
    public static string CertificateDirectory()
    {
        var root = FindRepositoryRoot(AppContext.BaseDirectory) ?? FindRepositoryRoot(Environment.CurrentDirectory);
        if (root is null)
        {
            throw new DirectoryNotFoundException(
                $"no folder above {AppContext.BaseDirectory} or {Environment.CurrentDirectory} holds {SolutionFileName}; give the certificate's path (--cert or --ca)");
        }
        return Path.Combine(root, "tools", "certificates");
    }

    private static string? FindRepositoryRoot(string start)
    {
        for (var directory = new DirectoryInfo(start); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, SolutionFileName)))
                return directory.FullName;
        }
        return null;
    }

    private static bool IsIssuedBy(X509Certificate2 authority, X509Certificate? certificate, X509Chain? platformChain, SslPolicyErrors errors)
    {
        // The platform's chain fails because the authority is in no system store; anything else it found (no
        // certificate, a name that does not match the host) stays fatal.
        if (certificate is null || (errors & ~SslPolicyErrors.RemoteCertificateChainErrors) != SslPolicyErrors.None)
            return false;

        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(authority);
        // A throw-away authority publishes no revocation lists.
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.ApplicationPolicy.Add(s_serverAuthentication);
        if (platformChain is not null)
            chain.ChainPolicy.ExtraStore.AddRange(platformChain.ChainPolicy.ExtraStore);

        if (certificate is X509Certificate2 leaf)
            return chain.Build(leaf);
        using var copy = X509CertificateLoader.LoadCertificate(certificate.GetRawCertData());
        return chain.Build(copy);
    }
}
