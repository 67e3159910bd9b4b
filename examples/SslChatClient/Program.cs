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
            if (error is not null)
                Console.Error.WriteLine(error);
            Console.Error.WriteLine($"Usage: SslChatClient {ExampleCertificates.Usage} [address] [port]");
            Console.Error.WriteLine($"   (defaults: {ChatArguments.DefaultAddress} {DefaultPort};");
            Console.Error.WriteLine($"    certificates from {ExampleCertificates.DirectoryVariable} or the repository's tools/certificates)");
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
