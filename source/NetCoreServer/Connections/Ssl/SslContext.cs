using System;
using System.Collections.Generic;
using System.Net.Security;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Connections;

namespace NetCoreServer;

/// <summary>
/// TLS settings shared by servers and clients: protocols, certificates, validation, and what NetCoreServer lacks —
/// SNI certificate selection, ALPN, client-certificate policy and a handshake timeout. Sessions read the context
/// when their handshake starts, so replacing <see cref="Certificate"/> on a running server affects new sessions only.
/// </summary>
public class SslContext
{
    /// <summary>Creates a context for TLS 1.3 with no certificate and default validation.</summary>
    public SslContext()
        : this(SslProtocols.Tls13)
    {
    }

    /// <summary>Creates a context for the given protocols.</summary>
    /// <param name="protocols">Allowed protocol versions (<see cref="SslProtocols.None"/> lets the OS choose).</param>
    public SslContext(SslProtocols protocols)
    {
        Protocols = protocols;
    }

    /// <summary>Creates a context with a certificate validation callback.</summary>
    /// <param name="protocols">Allowed protocol versions.</param>
    /// <param name="certificateValidationCallback">Validates the peer's certificate.</param>
    public SslContext(SslProtocols protocols, RemoteCertificateValidationCallback certificateValidationCallback)
        : this(protocols)
    {
        CertificateValidationCallback = certificateValidationCallback;
    }

    /// <summary>Creates a context with a certificate (the server's, or the client's for mutual TLS).</summary>
    /// <param name="protocols">Allowed protocol versions.</param>
    /// <param name="certificate">Certificate with its private key.</param>
    public SslContext(SslProtocols protocols, X509Certificate certificate)
        : this(protocols)
    {
        Certificate = certificate;
    }

    /// <summary>Creates a context with a certificate and a validation callback.</summary>
    /// <param name="protocols">Allowed protocol versions.</param>
    /// <param name="certificate">Certificate with its private key.</param>
    /// <param name="certificateValidationCallback">Validates the peer's certificate; null means the platform's validation (as NetCoreServer's <c>null</c> argument).</param>
    public SslContext(SslProtocols protocols, X509Certificate certificate, RemoteCertificateValidationCallback? certificateValidationCallback)
        : this(protocols, certificate)
    {
        CertificateValidationCallback = certificateValidationCallback;
    }

    /// <summary>Creates a context with a certificate collection (client certificates to choose from).</summary>
    /// <param name="protocols">Allowed protocol versions.</param>
    /// <param name="certificates">Certificates with their private keys.</param>
    public SslContext(SslProtocols protocols, X509Certificate2Collection certificates)
        : this(protocols)
    {
        Certificates = certificates;
    }

    /// <summary>Creates a context with a certificate collection and a validation callback.</summary>
    /// <param name="protocols">Allowed protocol versions.</param>
    /// <param name="certificates">Certificates with their private keys.</param>
    /// <param name="certificateValidationCallback">Validates the peer's certificate; null means the platform's validation (as NetCoreServer's <c>null</c> argument).</param>
    public SslContext(SslProtocols protocols, X509Certificate2Collection certificates, RemoteCertificateValidationCallback? certificateValidationCallback)
        : this(protocols, certificates)
    {
        CertificateValidationCallback = certificateValidationCallback;
    }

    /// <summary>Allowed protocol versions (default TLS 1.3; use <c>Tls12 | Tls13</c> to accept both).</summary>
    public SslProtocols Protocols { get; set; }

    /// <summary>The server certificate (or the client certificate for mutual TLS); default null. Replaceable while running.</summary>
    public X509Certificate? Certificate { get; set; }

    /// <summary>Certificates to choose from (default null): the first is used by servers when <see cref="Certificate"/> is null; clients offer them all.</summary>
    public X509Certificate2Collection? Certificates { get; set; }

    /// <summary>Validates the peer's certificate; null (the default) means the platform's validation (trusted chain, matching name).</summary>
    public RemoteCertificateValidationCallback? CertificateValidationCallback { get; set; }

    /// <summary>Servers ask for and require a client certificate (mutual TLS). Default false.</summary>
    public bool ClientCertificateRequired { get; set; }

    /// <summary>
    /// SNI: chooses the server certificate from the host name the client asked for (null when the client sent none).
    /// Returning null falls back to <see cref="Certificate"/>. Default null: always <see cref="Certificate"/>. Runs on the handshake's thread.
    /// </summary>
    public Func<string?, X509Certificate?>? ServerCertificateSelector { get; set; }

    /// <summary>ALPN protocols offered (client) or accepted (server), in preference order; null (the default) or empty sends none.</summary>
    public List<SslApplicationProtocol>? ApplicationProtocols { get; set; }

    /// <summary>
    /// How long the handshake may take before the connection is dropped (default 10 s). Protects servers from peers
    /// that connect and say nothing, or speak plaintext to the TLS port.
    /// </summary>
    public TimeSpan HandshakeTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Check certificate revocation during validation (default false: it needs network access).</summary>
    public bool CheckCertificateRevocation { get; set; }

    // One certificate context per server certificate handed out (the fallback and every certificate the SNI selector
    // returned), held no longer than the certificate itself: a replaced or dropped certificate takes its context with it.
    private readonly ConditionalWeakTable<X509Certificate2, SslStreamCertificateContext> _serverContexts = new();
    private int _serverContextsBuilt;

    /// <summary>How many server certificate contexts this context has built (one per certificate object, however many handshakes).</summary>
    internal int ServerCertificateContextsBuilt => Volatile.Read(ref _serverContextsBuilt);

    /// <summary>The server's handshake with this context, one delegate for every session (see <see cref="TlsHandshake.ServerAsync"/>).</summary>
    internal Func<SslStream, Action, CancellationToken, Task> ServerHandshake
        => _serverHandshake ??= (ssl, rejected, cancellationToken) => TlsHandshake.ServerAsync(this, ssl, rejected, cancellationToken);

    private Func<SslStream, Action, CancellationToken, Task>? _serverHandshake;

    /// <summary>
    /// The context every handshake presents <paramref name="certificate"/> with, built once and reused while the certificate
    /// object lives (a new one after <see cref="Certificate"/> is replaced by another object). Building it builds the
    /// certificate's chain and, on Linux, the native TLS context (which also keeps the server's session tickets): work
    /// SslStream would otherwise redo for every handshake given only the certificate. Null for a certificate without its
    /// private key, which SslStream itself looks up in the certificate stores.
    /// </summary>
    internal SslStreamCertificateContext? ServerCertificateContext(X509Certificate? certificate)
    {
        if (certificate is not X509Certificate2 { HasPrivateKey: true } withKey)
            return null;
        if (_serverContexts.TryGetValue(withKey, out var context))
            return context;
        // Two first handshakes at once may both build one; the first stored is kept for both.
        context = SslStreamCertificateContext.Create(withKey, additionalCertificates: null);
        Interlocked.Increment(ref _serverContextsBuilt);
        return _serverContexts.GetValue(withKey, _ => context);
    }
}
