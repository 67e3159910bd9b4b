using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace UdsChatServer;

internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
        {
            Console.Error.WriteLine($"Usage: UdsChatServer [path]   (default: {ChatArguments.DefaultSocketPath}; a file left by a server that died is replaced)");
            return 2;
        }

        using var server = new ChatServer(endpoint);
        return await ChatServerConsole.RunAsync(server, "Unix socket").ConfigureAwait(false);
    }
}
