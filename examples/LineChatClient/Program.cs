using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace LineChatClient;

/// <summary>The line chat's client: prints each whole line it receives; every line typed is sent with its line end.</summary>
internal static class Program
{
    private const int DefaultPort = 1111;

    private static async Task<int> Main(string[] args)
    {
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
        {
            Console.Error.WriteLine($"Usage: LineChatClient [address] [port]   (defaults: {ChatArguments.DefaultAddress} {DefaultPort})");
            return 2;
        }

        using var client = new ChatClient(address, port);
        return await ChatClientConsole.RunAsync(client, "Line", address, port).ConfigureAwait(false);
    }
}
