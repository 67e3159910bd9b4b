using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace UdsChatClient;

internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
        {
            Console.Error.WriteLine($"Usage: UdsChatClient [path]   (default: {ChatArguments.DefaultSocketPath})");
            return 2;
        }

        using var client = new ChatClient(endpoint);
        return await ChatClientConsole.RunAsync(client, "Unix socket", endpoint.ToString()).ConfigureAwait(false);
    }
}
