using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace TcpChatServer;

internal static class Program
{
    private const int DefaultPort = 1111;

    private static readonly ExampleUsage s_usage = new("TcpChatServer", "A TCP chat server: every line a client sends goes to every client.", "[port] [address]",
        $"   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var server = new ChatServer(address, port);
        return await ChatServerConsole.RunAsync(server, "TCP").ConfigureAwait(false);
    }
}
