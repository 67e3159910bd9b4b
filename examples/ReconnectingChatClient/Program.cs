using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace ReconnectingChatClient;

/// <summary>
/// A TCP chat client (for examples/TcpChatServer) that outlives server restarts: after a lost connection or a failed
/// attempt it waits 100 ms, then twice as long after each further failure up to 5 s (with jitter), and connects again.
/// </summary>
internal static class Program
{
    private const int DefaultPort = 1111;

    private static readonly ExampleUsage s_usage = new("ReconnectingChatClient",
        "A TCP chat client that reconnects by itself with exponential back-off (100 ms doubling to 5 s, with jitter).",
        "[address] [port]",
        $"   (defaults: {ChatArguments.DefaultAddress} {DefaultPort}; talks to TcpChatServer)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var client = new ChatClient(address, port);
        return await ChatClientConsole.RunAsync(client, "Reconnecting TCP", address, port).ConfigureAwait(false);
    }
}
