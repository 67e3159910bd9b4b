using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WsChatServer;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static readonly ExampleUsage s_usage = new("WsChatServer",
        "A WebSocket chat server with its browser page: every message goes to every client.",
        "[port] [address]",
        "       WsChatServer PATH               (a Unix socket file, such as /tmp/chat.sock)",
        $"   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        ChatServer server;
        if (ChatArguments.NamesSocketFile(args))
        {
            if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
                return s_usage.Error();
            server = new ChatServer(endpoint);
        }
        else if (ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
        {
            server = new ChatServer(address, port);
        }
        else
        {
            return s_usage.Error();
        }

        using (server)
        {
            return await ChatServerConsole.RunAsync(server, "WS", text => server.MulticastText(text),
                () => WsChat.PrintPage("http", server.Endpoint)).ConfigureAwait(false);
        }
    }
}
