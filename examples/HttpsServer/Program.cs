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
        if (!ExampleCertificates.TryParseServer(args, "HttpsServer", DefaultPort, out var certificates, out var address, out var port))
            return 2;

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
