using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WsChatServer;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static async Task<int> Main(string[] args)
    {
        ChatServer server;
        if (ChatArguments.NamesSocketFile(args))
        {
            if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
                return Usage();
            server = new ChatServer(endpoint);
        }
        else if (ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
        {
            server = new ChatServer(address, port);
        }
        else
        {
            return Usage();
        }

        using (server)
        {
            return await ChatServerConsole.RunAsync(server, "WS", text => server.MulticastText(text),
                () => WsChat.PrintPage("http", server.Endpoint)).ConfigureAwait(false);
        }
    }

    private static int Usage()
    {
        Console.Error.WriteLine($"Usage: WsChatServer [port] [address]   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");
        Console.Error.WriteLine("       WsChatServer PATH               (a Unix socket file, such as /tmp/chat.sock)");
        return 2;
    }
}
