using System;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>The console of the chat clients: every line is a chat message, <c>!</c> reconnects, an empty line quits.</summary>
public static class ChatClientConsole
{
    /// <summary>Connects, then sends console lines until the user quits (empty line, end of input, SIGINT or SIGTERM).</summary>
    /// <param name="client">The client; it keeps reconnecting by itself while the server is away.</param>
    /// <param name="protocol">The name printed in messages, such as <c>TCP</c>.</param>
    /// <param name="address">The server address, for the first message.</param>
    /// <param name="port">The server port, for the first message.</param>
    /// <returns>The process exit code: 0.</returns>
    public static Task<int> RunAsync(IChatClient client, string protocol, string address, int port)
        => RunAsync(client, protocol, $"{address}:{port}");

    /// <summary>Connects, then sends console lines until the user quits (empty line, end of input, SIGINT or SIGTERM).</summary>
    /// <param name="client">The client; it keeps reconnecting by itself while the server is away.</param>
    /// <param name="protocol">The name printed in messages, such as <c>Unix socket</c>.</param>
    /// <param name="server">Where the server is, for the first message: <c>address:port</c>, or a socket file.</param>
    /// <returns>The process exit code: 0.</returns>
    public static async Task<int> RunAsync(IChatClient client, string protocol, string server)
    {
        using var commands = new ConsoleCommands();
        Console.WriteLine($"{protocol} chat client connecting to {server}");
        Console.WriteLine("Type a line to send it to the chat, '!' to reconnect, an empty line to quit.");
        client.ConnectAsync();

        while (await commands.ReadAsync().ConfigureAwait(false) is { } line)
        {
            if (line == "!")
            {
                Console.WriteLine("Client reconnecting...");
                if (!client.ReconnectAsync())
                    Console.WriteLine("Not connected now; the client keeps trying to connect by itself.");
                continue;
            }
            // The chat is line-based: the newline lets receivers tell messages apart when TCP joins or splits them.
            if (!client.SendAsync(line + "\n"))
                Console.WriteLine("Not connected: the message was not sent.");
        }

        Console.WriteLine("Client disconnecting...");
        await client.DisconnectAndStopAsync().ConfigureAwait(false);
        Console.WriteLine("Done!");
        return 0;
    }
}
