using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace UdsChatServer;

internal static class Program
{
    private static readonly ExampleUsage s_usage = new("UdsChatServer", "A chat server on a Unix domain socket: every line a client sends goes to every client.", "[path]",
        $"   (default: {ChatArguments.DefaultSocketPath}; a file left by a server that died is replaced)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
            return s_usage.Error();

        using var server = new ChatServer(endpoint);
        return await ChatServerConsole.RunAsync(server, "Unix socket").ConfigureAwait(false);
    }
}
