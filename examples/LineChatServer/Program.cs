using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace LineChatServer;

/// <summary>
/// A TCP chat that speaks lines: each <c>\n</c>-terminated UTF-8 line a client sends reaches every client as one whole
/// line, however TCP split or joined it; a line over 4 KiB closes its sender.
/// </summary>
internal static class Program
{
    private const int DefaultPort = 1111;

    private static readonly ExampleUsage s_usage = new("LineChatServer", "A TCP chat of whole lines: each line a client sends reaches every client as one line.", "[port] [address]",
        $"   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var server = new ChatServer(address, port);
        return await ChatServerConsole.RunAsync(server, "Line", line => server.MulticastMessage(line)).ConfigureAwait(false);
    }
}
