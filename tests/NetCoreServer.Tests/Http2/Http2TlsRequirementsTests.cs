using System.Net.Security;
using System.Security.Authentication;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// RFC 9113 §9.2: HTTP/2 over TLS 1.2 needs an ephemeral key exchange (ECDHE, DHE) and an AEAD cipher (GCM, CCM,
/// ChaCha20-Poly1305); the suites of Appendix A's block list lack one or the other. TLS 1.3 suites are all fine, and TLS
/// below 1.2 never is.
/// </summary>
[TestFixture]
public sealed class Http2TlsRequirementsTests
{
    [TestCase(TlsCipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_CCM)]
    [TestCase(TlsCipherSuite.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_DHE_RSA_WITH_AES_256_CCM)]
    [TestCase(TlsCipherSuite.TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_RSA_WITH_CAMELLIA_128_GCM_SHA256)]
    public void EphemeralAeadSuitesAreAdequateOverTls12(TlsCipherSuite suite)
        => Assert.That(Http2TlsRequirements.IsAdequate(SslProtocols.Tls12, suite), Is.True);

    // Appendix A: no AEAD (CBC, RC4, NULL), no ephemeral key exchange (RSA, static DH/ECDH, PSK), or anonymous.
    [TestCase(TlsCipherSuite.TLS_RSA_WITH_AES_128_CBC_SHA256)]
    [TestCase(TlsCipherSuite.TLS_RSA_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_RSA_WITH_AES_256_GCM_SHA384)]
    [TestCase(TlsCipherSuite.TLS_RSA_WITH_3DES_EDE_CBC_SHA)]
    [TestCase(TlsCipherSuite.TLS_RSA_WITH_RC4_128_SHA)]
    [TestCase(TlsCipherSuite.TLS_RSA_WITH_NULL_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384)]
    [TestCase(TlsCipherSuite.TLS_DHE_RSA_WITH_AES_128_CBC_SHA)]
    [TestCase(TlsCipherSuite.TLS_ECDH_RSA_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_ECDH_ECDSA_WITH_AES_256_GCM_SHA384)]
    [TestCase(TlsCipherSuite.TLS_DH_RSA_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_DH_anon_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_PSK_WITH_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_RSA_WITH_AES_128_CCM)]
    [TestCase(TlsCipherSuite.TLS_ECDHE_RSA_WITH_NULL_SHA)]
    [TestCase(TlsCipherSuite.TLS_NULL_WITH_NULL_NULL)]
    [TestCase((TlsCipherSuite)0xFEFE)]
    public void BlockListedSuitesAreInadequateOverTls12(TlsCipherSuite suite)
        => Assert.That(Http2TlsRequirements.IsAdequate(SslProtocols.Tls12, suite), Is.False);

    [TestCase(TlsCipherSuite.TLS_AES_128_GCM_SHA256)]
    [TestCase(TlsCipherSuite.TLS_AES_256_GCM_SHA384)]
    [TestCase(TlsCipherSuite.TLS_CHACHA20_POLY1305_SHA256)]
    public void Tls13SuitesAreAdequate(TlsCipherSuite suite)
        => Assert.That(Http2TlsRequirements.IsAdequate(SslProtocols.Tls13, suite), Is.True);

#pragma warning disable SYSLIB0039 // the old versions are what is checked
    [TestCase(SslProtocols.Tls11)]
    [TestCase(SslProtocols.Tls)]
#pragma warning restore SYSLIB0039
    [TestCase(SslProtocols.None)]
    public void TlsBelow12IsInadequateWhateverTheSuite(SslProtocols protocol)
        => Assert.That(Http2TlsRequirements.IsAdequate(protocol, TlsCipherSuite.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256), Is.False);
}
