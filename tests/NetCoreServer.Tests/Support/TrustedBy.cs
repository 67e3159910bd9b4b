using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Tests.Support;

/// <summary>Certificate validation against a test CA instead of the machine's trust store.</summary>
internal static class TrustedBy
{
    /// <summary>Accepts a peer certificate only if it chains to <paramref name="authority"/> and is within its validity period.</summary>
    public static RemoteCertificateValidationCallback Authority(X509Certificate2 authority) => (_, certificate, _, errors) =>
    {
        if (certificate == null)
            return false;
        // Name mismatches still fail; only the untrusted-root error is re-checked against our CA.
        if ((errors & SslPolicyErrors.RemoteCertificateNameMismatch) != 0)
            return false;
        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(authority);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        return chain.Build(X509CertificateLoader.LoadCertificate(certificate.GetRawCertData()));
    };
}
