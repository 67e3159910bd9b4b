using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WsChatClient;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static async Task<int> Main(string[] args)
    {
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
        {
            Console.Error.WriteLine($"Usage: WsChatClient [address] [port]   (defaults: {ChatArguments.DefaultAddress} {DefaultPort})");
            return 2;
        }

        using var client = new ChatClient(address, port);
        return await ChatClientConsole.RunAsync(client, "WS", address, port).ConfigureAwait(false);
    }
}
