using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace WsChatClient;

internal static class Program
{
    private const int DefaultPort = 8080;

    private static readonly ExampleUsage s_usage = new("WsChatClient",
        "A WebSocket chat client: sends typed lines as text messages, prints what the server sends.",
        "[address] [port]",
        "       WsChatClient PATH               (a server's Unix socket file)",
        $"   (defaults: {ChatArguments.DefaultAddress} {DefaultPort})");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (ChatArguments.NamesSocketFile(args))
        {
            if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
                return s_usage.Error();
            using var local = new ChatClient(endpoint);
            return await ChatClientConsole.RunAsync(local, "WS", endpoint.ToString()).ConfigureAwait(false);
        }
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var client = new ChatClient(address, port);
        return await ChatClientConsole.RunAsync(client, "WS", address, port).ConfigureAwait(false);
    }
}
