using System;
using System.Globalization;
using System.Net;
using System.Threading.Tasks;

namespace TcpChatClient;

internal static class Program
{
    private const string DefaultAddress = "127.0.0.1";
    private const int DefaultPort = 1111;

    private static async Task<int> Main(string[] args)
    {
        if (!TryParseArguments(args, out var address, out var port))
        {
            Console.Error.WriteLine($"Usage: TcpChatClient [address] [port]   (defaults: {DefaultAddress} {DefaultPort})");
            return 2;
        }

        using var client = new ChatClient(address, port);
        Console.WriteLine($"TCP chat client connecting to {address}:{port}");
        Console.WriteLine("Type a line to send it to the chat, '!' to reconnect, an empty line to quit.");
        client.ConnectAsync();

        using var commands = new ConsoleCommands();
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

    private static bool TryParseArguments(string[] args, out string address, out int port)
    {
        address = DefaultAddress;
        port = DefaultPort;
        if (args.Length > 2)
            return false;
        if (args.Length >= 1)
            address = args[0];
        if (args.Length == 2 && !(int.TryParse(args[1], NumberStyles.None, CultureInfo.InvariantCulture, out port) && port is > 0 and <= IPEndPoint.MaxPort))
            return false;
        return true;
    }
}
