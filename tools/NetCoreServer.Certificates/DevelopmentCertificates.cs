using System;
using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Certificates;

/// <summary>
/// Throw-away certificates for development: a certificate authority, server and client certificates it signs,
/// and self-signed certificates, all RSA 2048 with SHA-256, matching what <c>tools/certificates/generate.sh</c>
/// writes. Every certificate returned carries its private key and works with <see cref="System.Net.Security.SslStream"/>
/// on Linux, macOS and Windows. Never use them in production: nothing here protects the keys.
/// </summary>
/// <remarks>All members are thread-safe. The caller owns (and should dispose) every certificate returned.</remarks>
public static partial class DevelopmentCertificates
{
    /// <summary>The PKCS#12 password of the generated files unless another is given: <c>qwerty</c>.</summary>
    public const string DefaultPassword = "qwerty";

    /// <summary>The common name of the authority unless another is given: <c>NetCoreServer Test CA</c>.</summary>
    public const string DefaultAuthorityName = "NetCoreServer Test CA";

    /// <summary>The common name of a server certificate unless another is given: <c>localhost</c>.</summary>
    public const string DefaultServerName = "localhost";

    /// <summary>The common name of a client certificate unless another is given: <c>NetCoreServer Test Client</c>.</summary>
    public const string DefaultClientName = "NetCoreServer Test Client";

    private const int KeySize = 2048;

    // The same default as generate.sh --days.
    private static readonly TimeSpan s_defaultLifetime = TimeSpan.FromDays(3650);

    // An issuer cannot sign outside its own validity, so an authority starts a week in the past: a test can then
    // issue a certificate that has already expired (or is about to) without building a back-dated authority.
    private static readonly TimeSpan s_authorityBackdating = TimeSpan.FromDays(7);

    // Tolerates peers whose clocks run a little behind ours.
    private static readonly TimeSpan s_clockSkew = TimeSpan.FromHours(1);

    private static readonly Oid s_serverAuthentication = new("1.3.6.1.5.5.7.3.1", "Server Authentication");
    private static readonly Oid s_clientAuthentication = new("1.3.6.1.5.5.7.3.2", "Client Authentication");

    /// <summary>
    /// Creates a self-signed certificate authority (basic constraints CA, key usage certificate and CRL signing)
    /// to sign server and client certificates with.
    /// </summary>
    /// <param name="commonName">Subject common name; defaults to <see cref="DefaultAuthorityName"/>.</param>
    /// <param name="lifetime">How long the authority stays valid from now; defaults to 3650 days.
    /// Its validity starts seven days in the past, so certificates that have already expired can be issued.</param>
    /// <returns>The authority with its private key.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="lifetime"/> is not positive.</exception>
    public static X509Certificate2 CreateAuthority(string commonName = DefaultAuthorityName, TimeSpan? lifetime = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(commonName);
        TimeSpan validFor = lifetime ?? s_defaultLifetime;
        if (validFor <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(lifetime), validFor, "The authority's lifetime must be positive.");
        }

        using RSA key = RSA.Create(KeySize);
        CertificateRequest request = NewRequest(commonName, key);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(
            X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign | X509KeyUsageFlags.DigitalSignature, true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, false));

        DateTimeOffset now = DateTimeOffset.UtcNow;
        using X509Certificate2 certificate = request.CreateSelfSigned(now - s_authorityBackdating, now + validFor);
        return WithUsablePrivateKey(certificate);
    }

    /// <summary>
    /// Creates a server certificate signed by <paramref name="authority"/>: extended key usage server
    /// authentication, subject alternative names <c>localhost</c>, <c>127.0.0.1</c> and <c>::1</c> (plus
    /// <paramref name="commonName"/> when it is another host name or address).
    /// </summary>
    /// <param name="authority">The signing authority; it must carry its private key.</param>
    /// <param name="commonName">Subject common name; defaults to <see cref="DefaultServerName"/>.</param>
    /// <param name="notBefore">Start of validity; defaults to an hour ago (or the authority's start, if later).</param>
    /// <param name="notAfter">End of validity; defaults to 3650 days from now (or the authority's end, if earlier).
    /// A value in the past gives an expired certificate.</param>
    /// <returns>The certificate with its private key.</returns>
    /// <exception cref="ArgumentException"><paramref name="authority"/> has no private key.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The validity is empty or lies outside the authority's.</exception>
    public static X509Certificate2 CreateServer(
        X509Certificate2 authority,
        string commonName = DefaultServerName,
        DateTimeOffset? notBefore = null,
        DateTimeOffset? notAfter = null)
    {
        return Issue(authority, commonName, s_serverAuthentication, withSubjectAlternativeNames: true, notBefore, notAfter);
    }

    /// <summary>Creates a client certificate signed by <paramref name="authority"/>: extended key usage client authentication.</summary>
    /// <param name="authority">The signing authority; it must carry its private key.</param>
    /// <param name="commonName">Subject common name; defaults to <see cref="DefaultClientName"/>.</param>
    /// <param name="notBefore">Start of validity; defaults to an hour ago (or the authority's start, if later).</param>
    /// <param name="notAfter">End of validity; defaults to 3650 days from now (or the authority's end, if earlier).
    /// A value in the past gives an expired certificate.</param>
    /// <returns>The certificate with its private key.</returns>
    /// <exception cref="ArgumentException"><paramref name="authority"/> has no private key.</exception>
    /// <exception cref="ArgumentOutOfRangeException">The validity is empty or lies outside the authority's.</exception>
    public static X509Certificate2 CreateClient(
        X509Certificate2 authority,
        string commonName = DefaultClientName,
        DateTimeOffset? notBefore = null,
        DateTimeOffset? notAfter = null)
    {
        return Issue(authority, commonName, s_clientAuthentication, withSubjectAlternativeNames: false, notBefore, notAfter);
    }

    /// <summary>
    /// Creates a self-signed end-entity certificate usable for both server and client authentication, with the
    /// same subject alternative names as <see cref="CreateServer"/>. Peers must trust this exact certificate;
    /// for anything with more than one certificate, an authority is simpler.
    /// </summary>
    /// <param name="commonName">Subject common name; defaults to <see cref="DefaultServerName"/>.</param>
    /// <param name="notBefore">Start of validity; defaults to an hour ago.</param>
    /// <param name="notAfter">End of validity; defaults to 3650 days from now. A value in the past gives an expired certificate.</param>
    /// <returns>The certificate with its private key.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The validity is empty.</exception>
    public static X509Certificate2 CreateSelfSigned(
        string commonName = DefaultServerName,
        DateTimeOffset? notBefore = null,
        DateTimeOffset? notAfter = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(commonName);
        DateTimeOffset now = DateTimeOffset.UtcNow;
        DateTimeOffset start = notBefore ?? now - s_clockSkew;
        DateTimeOffset end = notAfter ?? now + s_defaultLifetime;
        ThrowIfEmpty(start, end);

        using RSA key = RSA.Create(KeySize);
        CertificateRequest request = NewRequest(commonName, key);
        AddEndEntityExtensions(request, commonName, s_serverAuthentication, s_clientAuthentication);
        using X509Certificate2 certificate = request.CreateSelfSigned(start, end);
        return WithUsablePrivateKey(certificate);
    }

    private static X509Certificate2 Issue(
        X509Certificate2 authority,
        string commonName,
        Oid usage,
        bool withSubjectAlternativeNames,
        DateTimeOffset? notBefore,
        DateTimeOffset? notAfter)
    {
        ArgumentNullException.ThrowIfNull(authority);
        ArgumentException.ThrowIfNullOrWhiteSpace(commonName);
        if (!authority.HasPrivateKey)
        {
            throw new ArgumentException("The authority certificate has no private key, so it cannot sign.", nameof(authority));
        }

        // X509Certificate2 reports local times; DateTimeOffset compares instants whatever the offsets.
        DateTimeOffset authorityStart = new(authority.NotBefore);
        DateTimeOffset authorityEnd = new(authority.NotAfter);
        DateTimeOffset now = DateTimeOffset.UtcNow;
        DateTimeOffset start = notBefore ?? Max(now - s_clockSkew, authorityStart);
        DateTimeOffset end = notAfter ?? Min(now + s_defaultLifetime, authorityEnd);
        ThrowIfEmpty(start, end);
        if (start < authorityStart || end > authorityEnd)
        {
            throw new ArgumentOutOfRangeException(
                notBefore.HasValue && start < authorityStart ? nameof(notBefore) : nameof(notAfter),
                $"The validity {start:u} to {end:u} must lie within the authority's, {authorityStart:u} to {authorityEnd:u}.");
        }

        using RSA key = RSA.Create(KeySize);
        CertificateRequest request = NewRequest(commonName, key);
        AddEndEntityExtensions(request, withSubjectAlternativeNames ? commonName : null, usage);

        X509SubjectKeyIdentifierExtension? authorityKeyId = FindSubjectKeyIdentifier(authority);
        if (authorityKeyId is not null)
        {
            request.CertificateExtensions.Add(X509AuthorityKeyIdentifierExtension.CreateFromSubjectKeyIdentifier(authorityKeyId));
        }

        using X509Certificate2 publicOnly = request.Create(authority, start, end, NewSerialNumber());
        using X509Certificate2 certificate = publicOnly.CopyWithPrivateKey(key);
        return WithUsablePrivateKey(certificate);
    }

    private static CertificateRequest NewRequest(string commonName, RSA key)
    {
        X500DistinguishedNameBuilder subject = new();
        subject.AddCommonName(commonName);
        return new CertificateRequest(subject.Build(), key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
    }

    // subjectAlternativeNamesFor: the common name of a server certificate, or null for a certificate without names.
    private static void AddEndEntityExtensions(CertificateRequest request, string? subjectAlternativeNamesFor, params Oid[] usages)
    {
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(
            X509KeyUsageFlags.DigitalSignature | X509KeyUsageFlags.KeyEncipherment, true));
        OidCollection enhancedUsages = new();
        foreach (Oid usage in usages)
        {
            enhancedUsages.Add(usage);
        }

        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension(enhancedUsages, false));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, false));
        if (subjectAlternativeNamesFor is not null)
        {
            request.CertificateExtensions.Add(BuildSubjectAlternativeNames(subjectAlternativeNamesFor));
        }
    }

    private static X509Extension BuildSubjectAlternativeNames(string commonName)
    {
        SubjectAlternativeNameBuilder names = new();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        names.AddIpAddress(IPAddress.IPv6Loopback);
        if (IPAddress.TryParse(commonName, out IPAddress? address))
        {
            if (!IPAddress.IsLoopback(address))
            {
                names.AddIpAddress(address);
            }
        }
        else if (Uri.CheckHostName(commonName) == UriHostNameType.Dns
            && !string.Equals(commonName, "localhost", StringComparison.OrdinalIgnoreCase))
        {
            names.AddDnsName(commonName);
        }

        return names.Build();
    }

    private static X509SubjectKeyIdentifierExtension? FindSubjectKeyIdentifier(X509Certificate2 certificate)
    {
        foreach (X509Extension extension in certificate.Extensions)
        {
            if (extension is X509SubjectKeyIdentifierExtension identifier)
            {
                return identifier;
            }
        }

        return null;
    }

    // Positive (top bit clear) and 16 bytes long, so reissued certificates never share a serial number.
    private static byte[] NewSerialNumber()
    {
        byte[] serial = RandomNumberGenerator.GetBytes(16);
        serial[0] = (byte)((serial[0] & 0x3F) | 0x40);
        return serial;
    }

    // A key attached with CopyWithPrivateKey is ephemeral: Windows' TLS stack (SChannel) cannot use it, and on every
    // platform the certificate would differ from one loaded from a file. A PKCS#12 round trip gives one kind of
    // certificate everywhere; Exportable lets LoadOrCreatePfx write it out.
    private static X509Certificate2 WithUsablePrivateKey(X509Certificate2 certificate)
    {
        byte[] pkcs12 = certificate.ExportPkcs12(Pkcs12ExportPbeParameters.Pbes2Aes256Sha256, DefaultPassword);
        try
        {
            return X509CertificateLoader.LoadPkcs12(pkcs12, DefaultPassword, X509KeyStorageFlags.Exportable);
        }
        finally
        {
            CryptographicOperations.ZeroMemory(pkcs12);
        }
    }

    private static void ThrowIfEmpty(DateTimeOffset start, DateTimeOffset end)
    {
        if (end <= start)
        {
            throw new ArgumentOutOfRangeException("notAfter", $"The validity must end ({end:u}) after it starts ({start:u}).");
        }
    }

    private static DateTimeOffset Max(DateTimeOffset a, DateTimeOffset b) => a > b ? a : b;

    private static DateTimeOffset Min(DateTimeOffset a, DateTimeOffset b) => a < b ? a : b;
}
