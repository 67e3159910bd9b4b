using System;
using System.Collections.Generic;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Connections;

/// <summary>
/// The handshakes an <see cref="SslContext"/> configures: the options read from it when a handshake starts and the
/// SslStream call that runs it. Stateless; what a context keeps between handshakes (its server certificate contexts)
/// stays in the context.
/// </summary>
internal static class TlsHandshake
{
    /// <summary>
    /// Runs the server's handshake on <paramref name="ssl"/>. With <see cref="SslContext.ServerCertificateSelector"/> the
    /// certificate is chosen once the client's hello names the host, and presented through its reused context like the fixed one.
    /// </summary>
    public static Task ServerAsync(SslContext context, SslStream ssl, Action rejected, CancellationToken cancellationToken)
    {
        var options = ServerOptions(context, rejected, out var selector, out var fallback);
        if (selector == null)
            return ssl.AuthenticateAsServerAsync(options, cancellationToken);
        var choice = new SniChoice(context, options, selector, fallback);
        return ssl.AuthenticateAsServerAsync(
            static (_, hello, state, _) => new ValueTask<SslServerAuthenticationOptions>(((SniChoice)state!).For(hello.ServerName)),
            choice,
            cancellationToken);
    }

    /// <summary>
    /// The server's options for one handshake; <paramref name="rejected"/> runs when this side rejects the client's
    /// certificate. With a selector the certificate is left out: <see cref="ServerAsync"/> chooses it per host.
    /// </summary>
    public static SslServerAuthenticationOptions ServerOptions(SslContext context, Action rejected) => ServerOptions(context, rejected, out _, out _);

    private static SslServerAuthenticationOptions ServerOptions(SslContext context, Action rejected, out Func<string?, X509Certificate?>? selector, out X509Certificate? fallback)
    {
        fallback = context.Certificate ?? (context.Certificates is { Count: > 0 } ? context.Certificates[0] : null);
        selector = context.ServerCertificateSelector;
        var options = new SslServerAuthenticationOptions
        {
            EnabledSslProtocols = context.Protocols,
            ClientCertificateRequired = context.ClientCertificateRequired,
            CertificateRevocationCheckMode = context.CheckCertificateRevocation ? X509RevocationMode.Online : X509RevocationMode.NoCheck,
            // Without a callback and without a required client certificate nothing is validated: installing one would
            // make the platform ask every client for a certificate.
            RemoteCertificateValidationCallback = context.CertificateValidationCallback != null || context.ClientCertificateRequired
                ? Recording(context.CertificateValidationCallback, rejected)
                : null,
            ApplicationProtocols = context.ApplicationProtocols is { Count: > 0 } ? new List<SslApplicationProtocol>(context.ApplicationProtocols) : null,
        };
        if (selector == null)
            Present(context, options, fallback);
        return options;
    }

    /// <summary>Sets the certificate the server presents: through its reused context, or as it is when it has no private key.</summary>
    public static void Present(SslContext context, SslServerAuthenticationOptions options, X509Certificate? certificate)
    {
        if (context.ServerCertificateContext(certificate) is { } built)
            options.ServerCertificateContext = built;
        else
            options.ServerCertificate = certificate;
    }

    /// <summary>The client's options for one handshake; <paramref name="rejected"/> runs when this side rejects the server's certificate.</summary>
    public static SslClientAuthenticationOptions ClientOptions(SslContext context, string targetHost, Action rejected)
    {
        X509CertificateCollection? clientCertificates = null;
        if (context.Certificates is { Count: > 0 })
            clientCertificates = context.Certificates;
        else if (context.Certificate != null)
            clientCertificates = new X509CertificateCollection { context.Certificate };
        return new SslClientAuthenticationOptions
        {
            TargetHost = targetHost,
            EnabledSslProtocols = context.Protocols,
            ClientCertificates = clientCertificates,
            CertificateRevocationCheckMode = context.CheckCertificateRevocation ? X509RevocationMode.Online : X509RevocationMode.NoCheck,
            RemoteCertificateValidationCallback = Recording(context.CertificateValidationCallback, rejected),
            ApplicationProtocols = context.ApplicationProtocols is { Count: > 0 } ? new List<SslApplicationProtocol>(context.ApplicationProtocols) : null,
        };
    }

    /// <summary>
    /// The validation as configured (the callback, or the platform's rule: no policy error at all), reporting a rejection
    /// to <paramref name="rejected"/>: only this tells a refused certificate apart from other failures, which the platform
    /// reports with the same exception type.
    /// </summary>
    private static RemoteCertificateValidationCallback Recording(RemoteCertificateValidationCallback? callback, Action rejected)
        => (sender, certificate, chain, errors) =>
        {
            var valid = callback?.Invoke(sender, certificate, chain, errors) ?? errors == SslPolicyErrors.None;
            if (!valid)
                rejected();
            return valid;
        };
}
