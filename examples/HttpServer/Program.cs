using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace HttpServerExample;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static async Task<int> Main(string[] args)
    {
        CacheServer server;
        if (ChatArguments.NamesSocketFile(args))
        {
            if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
                return Usage();
            server = new CacheServer(new HttpCacheApi("HTTP"), endpoint);
        }
        else if (ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
        {
            server = new CacheServer(new HttpCacheApi("HTTP"), address, port);
        }
        else
        {
            return Usage();
        }

        using (server)
            return await HttpServerConsole.RunAsync(server, "HTTP").ConfigureAwait(false);
    }

    private static int Usage()
    {
        Console.Error.WriteLine($"Usage: HttpServer [port] [address]   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");
        Console.Error.WriteLine("       HttpServer PATH               (a Unix socket file, such as /tmp/http.sock)");
        return 2;
    }
}
