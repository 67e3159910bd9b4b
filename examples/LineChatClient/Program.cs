using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace LineChatClient;

/// <summary>The line chat's client: prints each whole line it receives; every line typed is sent with its line end.</summary>
internal static class Program
{
    private const int DefaultPort = 1111;

    private static readonly ExampleUsage s_usage = new("LineChatClient", "The line chat's client: sends typed lines, prints each whole line it receives.", "[address] [port]",
        $"   (defaults: {ChatArguments.DefaultAddress} {DefaultPort})");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var client = new ChatClient(address, port);
        return await ChatClientConsole.RunAsync(client, "Line", address, port).ConfigureAwait(false);
    }
}
