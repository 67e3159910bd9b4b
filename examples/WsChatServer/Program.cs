using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WsChatServer;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static async Task<int> Main(string[] args)
    {
        if (!ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
        {
            Console.Error.WriteLine($"Usage: WsChatServer [port] [address]   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");
            return 2;
        }

        using var server = new ChatServer(address, port);
        return await ChatServerConsole.RunAsync(server, "WS", text => server.MulticastText(text),
            () => WsChat.PrintPage("http", server.Endpoint)).ConfigureAwait(false);
    }
}
