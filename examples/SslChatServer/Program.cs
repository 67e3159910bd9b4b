using System;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace SslChatServer;

internal static class Program
{
    private const int DefaultPort = 2222;

    private static readonly ExampleUsage s_usage = ExampleCertificates.ServerUsage("SslChatServer",
        "A TLS chat server that asks clients for a certificate: every line a client sends goes to every client.", DefaultPort);

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ExampleCertificates.TryParseServer(args, s_usage, DefaultPort, out var certificates, out var address, out var port))
            return ExampleUsage.BadCommandLine;

        if (!certificates.TryLoad("server.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate,
                (_, peer, chain, errors) => AcceptClientCertificate(authority, peer, chain, errors))
            {
                // Every client is asked for a certificate and one presented must be valid, but a peer without one
                // (openssl s_client, a browser) may still chat: mutual TLS here identifies, it does not gate.
                ClientCertificateRequired = true,
            };
            using var server = new ChatServer(context, address, port);
            return await ChatServerConsole.RunAsync(server, "SSL").ConfigureAwait(false);
        }
    }

    // Runs on the handshake's thread-pool thread, for every client.
    private static bool AcceptClientCertificate(CertificateAuthority authority, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        if (certificate is null)
            return true;
        var problem = authority.CheckClientCertificate(certificate, chain, errors);
        if (problem is not null)
            Console.WriteLine($"Chat SSL server rejected a client certificate: {problem}");
        return problem is null;
    }
}
