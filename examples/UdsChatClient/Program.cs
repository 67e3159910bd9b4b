using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace UdsChatClient;

internal static class Program
{
    private static readonly ExampleUsage s_usage = new("UdsChatClient", "A chat client over a Unix domain socket: sends typed lines, prints what the server sends.", "[path]",
        $"   (default: {ChatArguments.DefaultSocketPath})");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseSocketPath(args, out var endpoint))
            return s_usage.Error();

        using var client = new ChatClient(endpoint);
        return await ChatClientConsole.RunAsync(client, "Unix socket", endpoint.ToString()).ConfigureAwait(false);
    }
}
