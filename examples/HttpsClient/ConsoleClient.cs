using System;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpsClientExample;

/// <summary>An HTTPS client whose requests are tasks (<see cref="HttpsClientEx"/>) that trusts only the given
/// authority and reports its connects and socket errors, so the console can say why a request failed.</summary>
internal sealed class ConsoleClient : HttpsClientEx, IHttpConsoleClient
{
    private readonly CertificateAuthority _authority;

    /// <summary>Creates a client of <paramref name="address"/>:<paramref name="port"/>; it connects on the first request.</summary>
    /// <param name="context">Protocols; its validation callback is set here.</param>
    /// <param name="authority">The only authority the server's certificate may come from.</param>
    /// <param name="address">The server's address or host name, which its certificate must name.</param>
    /// <param name="port">The server's port.</param>
    public ConsoleClient(SslContext context, CertificateAuthority authority, string address, int port)
        : base(context, address, port)
    {
        _authority = authority;
        context.CertificateValidationCallback = ValidateServerCertificate;
    }

    public ConnectionEvents Events { get; } = new();

    // Both run on thread-pool threads, before the request's task completes.
    protected override void OnConnected() => Events.Connected();

    protected override void OnError(SocketError error) => Events.Failed(error);

    // Runs on the handshake's thread-pool thread, before the request is sent.
    private bool ValidateServerCertificate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        var problem = _authority.CheckServerCertificate(certificate, chain, errors);
        if (problem is not null)
            Console.WriteLine($"HTTPS client rejected the server certificate: {problem}");
        return problem is null;
    }
}
