using System;
using System.Security.Authentication;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpsServerExample;

internal static class Program
{
    private const int DefaultPort = 8443;

    private static async Task<int> Main(string[] args)
    {
        if (!ExampleCertificates.TryParse(args, out var certificates, out var positional, out var error)
            || !ChatArguments.TryParseServer(positional, DefaultPort, out var address, out var port))
        {
            if (error is not null)
                Console.Error.WriteLine(error);
            Console.Error.WriteLine($"Usage: HttpsServer {ExampleCertificates.Usage} [port] [address]");
            Console.Error.WriteLine($"   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port;");
            Console.Error.WriteLine($"    certificates from {ExampleCertificates.DirectoryVariable} or the repository's tools/certificates)");
            return 2;
        }

        if (!certificates.TryLoad("server.pfx", out var certificate, out var authority))
            return 1;
        using (certificate)
        using (authority)
        {
            // No client certificate is asked for: browsers and curl reach the page and the API with server authentication only.
            var context = new SslContext(SslProtocols.Tls12 | SslProtocols.Tls13, certificate);
            using var server = new CacheServer(context, new HttpCacheApi("HTTPS"), address, port);
            return await HttpServerConsole.RunAsync(server, "HTTPS").ConfigureAwait(false);
        }
    }
}
