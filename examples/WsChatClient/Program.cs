using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WsChatClient;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static async Task<int> Main(string[] args)
    {
        if (ChatArguments.NamesSocketFile(args))
        {
            if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
                return Usage();
            using var local = new ChatClient(endpoint);
            return await ChatClientConsole.RunAsync(local, "WS", endpoint.ToString()).ConfigureAwait(false);
        }
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
            return Usage();

        using var client = new ChatClient(address, port);
        return await ChatClientConsole.RunAsync(client, "WS", address, port).ConfigureAwait(false);
    }

    private static int Usage()
    {
        Console.Error.WriteLine($"Usage: WsChatClient [address] [port]   (defaults: {ChatArguments.DefaultAddress} {DefaultPort})");
        Console.Error.WriteLine("       WsChatClient PATH               (a server's Unix socket file)");
        return 2;
    }
}
