using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace HttpServerExample;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static readonly ExampleUsage s_usage = new("HttpServer",
        "An HTTP server: static pages and a key-value cache API (GET, POST, PUT, DELETE /api/cache?key=K).",
        "[port] [address]",
        "       HttpServer PATH               (a Unix socket file, such as /tmp/http.sock)",
        $"   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        CacheServer server;
        if (ChatArguments.NamesSocketFile(args))
        {
            if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
                return s_usage.Error();
            server = new CacheServer(new HttpCacheApi("HTTP"), endpoint);
        }
        else if (ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
        {
            server = new CacheServer(new HttpCacheApi("HTTP"), address, port);
        }
        else
        {
            return s_usage.Error();
        }

        using (server)
            return await HttpServerConsole.RunAsync(server, "HTTP").ConfigureAwait(false);
    }
}
