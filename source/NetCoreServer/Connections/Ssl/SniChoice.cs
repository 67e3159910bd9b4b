using System;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace NetCoreServer.Connections;

/// <summary>One handshake's SNI choice: the selector's certificate for the host the client named, else the fallback.</summary>
internal sealed class SniChoice(SslContext owner, SslServerAuthenticationOptions options, Func<string?, X509Certificate?> selector, X509Certificate? fallback)
{
    /// <summary>
    /// The options with the certificate for <paramref name="serverName"/>, which is null when the client sent no name
    /// (the platform reports that as an empty name).
    /// </summary>
    internal SslServerAuthenticationOptions For(string? serverName)
    {
        TlsHandshake.Present(owner, options, selector(string.IsNullOrEmpty(serverName) ? null : serverName) ?? fallback);
        return options;
    }
}
