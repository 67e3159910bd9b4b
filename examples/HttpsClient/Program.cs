using System;
using System.Security.Authentication;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpsClientExample;

internal static class Program
{
    private const int DefaultPort = 8443;

    private static async Task<int> Main(string[] args)
    {
        if (!ExampleCertificates.TryParse(args, out var certificates, out var rest, out var error)
            || !HttpClientConsole.TryParseTimeout(rest, out var timeout, out var positional)
            || !ChatArguments.TryParseClient(positional, DefaultPort, out var address, out var port))
        {
            if (error is not null)
                Console.Error.WriteLine(error);
            Console.Error.WriteLine($"Usage: HttpsClient {ExampleCertificates.Usage} {HttpClientConsole.Usage} [address] [port]");
            Console.Error.WriteLine($"   (defaults: a {HttpClientConsole.DefaultTimeout.TotalSeconds} s timeout, {ChatArguments.DefaultAddress} {DefaultPort};");
            Console.Error.WriteLine($"    certificates from {ExampleCertificates.DirectoryVariable} or the repository's tools/certificates)");
            return 2;
        }

        // client.pfx is presented only to a server that asks; the HTTPS example server does not.
        if (!certificates.TryLoad("client.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate);
            using var client = new ConsoleClient(context, authority, address, port);
            return await HttpClientConsole.RunAsync(client, "HTTPS", address, port, timeout).ConfigureAwait(false);
        }
    }
}
