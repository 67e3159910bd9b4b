using System;
using System.Linq;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Examples;

/// <summary>
/// A private certificate authority that peers' certificates are checked against instead of the system's trusted
/// roots: what a TLS example needs to trust the development certificates of <c>tools/certificates</c> without
/// installing anything and without switching validation off.
/// </summary>
/// <remarks>Thread-safe: checks run concurrently on the handshakes' threads.</remarks>
public sealed class CertificateAuthority : IDisposable
{
    private const string ServerAuthenticationOid = "1.3.6.1.5.5.7.3.1";
    private const string ClientAuthenticationOid = "1.3.6.1.5.5.7.3.2";

    /// <summary>Trusts <paramref name="certificate"/> as the only root.</summary>
    /// <param name="certificate">The authority's certificate (no private key needed); disposed with this object.</param>
    public CertificateAuthority(X509Certificate2 certificate)
    {
        ArgumentNullException.ThrowIfNull(certificate);
        Certificate = certificate;
    }

    /// <summary>The authority's certificate.</summary>
    public X509Certificate2 Certificate { get; }

    /// <summary>
    /// Checks a server's certificate as a client's validation callback receives it: it must be present, be for the
    /// host the client connected to, allow server authentication and chain up to this authority.
    /// </summary>
    /// <param name="certificate">The server's certificate.</param>
    /// <param name="chain">The chain the platform built; only the intermediates the server sent are used from it.</param>
    /// <param name="errors">What the platform found wrong; a chain error is expected (this root is not a system one)
    /// and is decided here again, anything else rejects.</param>
    /// <returns>Null when the certificate is accepted, otherwise why not.</returns>
    public string? CheckServerCertificate(X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
        => Check(certificate, chain, errors, ServerAuthenticationOid);

    /// <summary>
    /// Checks a client's certificate as a server's validation callback receives it: it must be present, allow
    /// client authentication and chain up to this authority.
    /// </summary>
    /// <param name="certificate">The client's certificate.</param>
    /// <param name="chain">The chain the platform built; only the intermediates the client sent are used from it.</param>
    /// <param name="errors">What the platform found wrong; a chain error is expected and decided here again.</param>
    /// <returns>Null when the certificate is accepted, otherwise why not.</returns>
    public string? CheckClientCertificate(X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
        => Check(certificate, chain, errors, ClientAuthenticationOid);

    /// <summary>Disposes <see cref="Certificate"/>.</summary>
    public void Dispose() => Certificate.Dispose();

    private string? Check(X509Certificate? certificate, X509Chain? platformChain, SslPolicyErrors errors, string usage)
    {
        if (certificate is null || errors.HasFlag(SslPolicyErrors.RemoteCertificateNotAvailable))
            return "no certificate was presented";
        // The name check is the platform's (subject alternative names, wildcards, IP addresses); only the chain
        // check needs redoing with our root.
        if (errors.HasFlag(SslPolicyErrors.RemoteCertificateNameMismatch))
            return $"{SslPolicyErrors.RemoteCertificateNameMismatch}: '{certificate.Subject}' is not issued for the host connected to";

        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(Certificate);
        // Development certificates name no revocation list; an online check would only fail or stall.
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.ApplicationPolicy.Add(new Oid(usage));
        if (platformChain is not null)
            chain.ChainPolicy.ExtraStore.AddRange(platformChain.ChainPolicy.ExtraStore);

        var leaf = certificate as X509Certificate2;
        var loaded = leaf is null ? X509CertificateLoader.LoadCertificate(certificate.GetRawCertData()) : null;
        try
        {
            if (chain.Build(leaf ?? loaded!))
                return null;
            var problems = chain.ChainStatus.Select(status => status.Status.ToString()).Distinct();
            return $"'{certificate.Subject}' does not chain up to '{Certificate.Subject}' for this use ({string.Join(", ", problems)})";
        }
        finally
        {
            loaded?.Dispose();
        }
    }
}
