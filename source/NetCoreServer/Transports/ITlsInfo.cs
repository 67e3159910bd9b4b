using System;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Transports;

/// <summary>What a TLS connection negotiated, read by <c>SslSession</c> and <c>SslClient</c>.</summary>
internal interface ITlsInfo
{
    /// <summary>True once the handshake succeeded.</summary>
    bool IsHandshaked { get; }

    /// <summary>Why the handshake failed (certificate rejected, protocol mismatch, timeout), or null.</summary>
    Exception? HandshakeException { get; }

    /// <summary>The TLS version agreed (None before the handshake).</summary>
    SslProtocols Protocol { get; }

    /// <summary>The cipher suite agreed (0, TLS_NULL_WITH_NULL_NULL, before the handshake).</summary>
    TlsCipherSuite CipherSuite { get; }

    /// <summary>The ALPN protocol agreed (default when none or before the handshake).</summary>
    SslApplicationProtocol ApplicationProtocol { get; }

    /// <summary>The peer's certificate once handshaked, or null.</summary>
    X509Certificate? RemoteCertificate { get; }
}
