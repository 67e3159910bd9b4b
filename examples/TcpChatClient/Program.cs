using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace TcpChatClient;

internal static class Program
{
    private const int DefaultPort = 1111;

    private static readonly ExampleUsage s_usage = new("TcpChatClient", "A TCP chat client: sends typed lines, prints what the server sends; reconnects every second.", "[address] [port]",
        $"   (defaults: {ChatArguments.DefaultAddress} {DefaultPort})");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var client = new ChatClient(address, port);
        return await ChatClientConsole.RunAsync(client, "TCP", address, port).ConfigureAwait(false);
    }
}
