using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace HttpsServerExample;

internal static class Program
{
    private const int DefaultPort = 8443;

    // No client certificate is asked for: browsers and curl reach the page and the API with server authentication only.
    private static Task<int> Main(string[] args) => TlsExampleStartup.RunServerAsync(args, "HttpsServer",
        "An HTTPS server: static pages and a key-value cache API (GET, POST, PUT, DELETE /api/cache?key=K).", DefaultPort, async (context, address, port) =>
    {
        using var server = new CacheServer(context, new HttpCacheApi("HTTPS"), address, port);
        return await HttpServerConsole.RunAsync(server, "HTTPS").ConfigureAwait(false);
    });
}
