using System;
using System.Net.Security;
using System.Security.Authentication;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// RFC 9113 §9.2 as a predicate: HTTP/2 over TLS needs TLS 1.2 or later, and over TLS 1.2 a cipher suite with an
/// ephemeral key exchange (ECDHE, DHE) and an AEAD cipher (GCM, CCM, ChaCha20-Poly1305), which is the rule Appendix A's
/// block list spells out suite by suite. Otherwise the connection error is INADEQUATE_SECURITY.
/// </summary>
internal static class Http2TlsRequirements
{
    public static bool IsAdequate(SslProtocols protocol, TlsCipherSuite suite)
    {
        if (protocol == SslProtocols.Tls13)
            return true;
        if (protocol != SslProtocols.Tls12)
            return false;
        // The IANA names say both halves: TLS_<key exchange>_WITH_<cipher>_<hash>; an unnamed value is no known suite.
        var name = suite.ToString();
        var with = name.IndexOf("_WITH_", StringComparison.Ordinal);
        if (with < 0)
            return false;
        var exchange = name.AsSpan(4, with - 4);
        var cipher = name.AsSpan(with + 6);
        var ephemeral = exchange is "ECDHE_RSA" or "ECDHE_ECDSA" or "ECDHE_PSK" or "DHE_RSA" or "DHE_DSS" or "DHE_PSK";
        var aead = cipher.Contains("_GCM", StringComparison.Ordinal) || cipher.Contains("_CCM", StringComparison.Ordinal) || cipher.StartsWith("CHACHA20_POLY1305", StringComparison.Ordinal);
        return ephemeral && aead;
    }
}
