using System;
using System.Linq;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Certificates.Tests.Support;

/// <summary>Chain validation against a test authority instead of the machine's trust store.</summary>
internal static class Trust
{
    public static readonly Oid ServerAuthentication = new("1.3.6.1.5.5.7.3.1");
    public static readonly Oid ClientAuthentication = new("1.3.6.1.5.5.7.3.2");

    /// <summary>A policy that trusts only <paramref name="authority"/>, checks no revocation and, when given, requires <paramref name="usage"/>.</summary>
    public static X509ChainPolicy Policy(X509Certificate2 authority, Oid? usage = null, DateTime? at = null)
    {
        X509ChainPolicy policy = new()
        {
            TrustMode = X509ChainTrustMode.CustomRootTrust,
            RevocationMode = X509RevocationMode.NoCheck,
            VerificationTime = at ?? DateTime.Now,
        };
        policy.CustomTrustStore.Add(authority);
        if (usage is not null)
        {
            policy.ApplicationPolicy.Add(usage);
        }

        return policy;
    }

    /// <summary>Builds the chain; returns whether it is valid, the union of its status flags and the thumbprints from leaf to root.</summary>
    public static (bool Valid, X509ChainStatusFlags Status, string[] Path) Build(
        X509Certificate2 certificate, X509Certificate2 authority, Oid? usage = null, DateTime? at = null)
    {
        using X509Chain chain = new() { ChainPolicy = Policy(authority, usage, at) };
        bool valid = chain.Build(certificate);
        X509ChainStatusFlags status = chain.ChainStatus.Aggregate(X509ChainStatusFlags.NoError, (all, s) => all | s.Status);
        string[] path = chain.ChainElements.Select(element => element.Certificate.Thumbprint).ToArray();
        return (valid, status, path);
    }

    /// <summary>Formats policy errors and chain status for assertion messages.</summary>
    public static string Describe(SslPolicyErrors errors, X509Chain? chain)
    {
        string status = chain is null ? "" : string.Join(", ", chain.ChainStatus.Select(s => s.Status));
        return $"{errors} [{status}]";
    }
}
