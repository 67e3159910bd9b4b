using System;
using System.Security.Authentication;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace SslChatClient;

internal static class Program
{
    private const int DefaultPort = 2222;

    private static async Task<int> Main(string[] args)
    {
        if (!ExampleCertificates.TryParse(args, out var certificates, out var positional, out var error)
            || !ChatArguments.TryParseClient(positional, DefaultPort, out var address, out var port))
        {
            ExampleCertificates.PrintUsage(error, "SslChatClient", "[address] [port]", $"{ChatArguments.DefaultAddress} {DefaultPort}");
            return 2;
        }

        if (!certificates.TryLoad("client.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            // The client certificate is presented when the server asks for one; the server's is checked in ChatClient.
            var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate);
            using var client = new ChatClient(context, authority, address, port);
            return await ChatClientConsole.RunAsync(client, "SSL", address, port).ConfigureAwait(false);
        }
    }
}
