using System;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace TcpChatServer;

internal static class Program
{
    private const int DefaultPort = 1111;
    private const string DefaultAddress = "127.0.0.1";

    private static async Task<int> Main(string[] args)
    {
        if (!TryParseArguments(args, out var address, out var port))
        {
            Console.Error.WriteLine($"Usage: TcpChatServer [port] [address]   (defaults: {DefaultPort} {DefaultAddress}; port 0 picks a free port)");
            return 2;
        }

        using var server = new ChatServer(address, port);
        try
        {
            if (!server.Start())
            {
                Console.Error.WriteLine($"The chat server did not start on {address}:{port}");
                return 1;
            }
        }
        catch (SocketException exception)
        {
            Console.Error.WriteLine($"The chat server cannot listen on {address}:{port}: {exception.SocketErrorCode}");
            return 1;
        }

        // Scripts read the bound port (the real one when port 0 was asked for) from this line, so it must not wait in a buffer.
        Console.WriteLine($"TCP chat server listening on {server.Endpoint}");
        Console.Out.Flush();
        Console.WriteLine("Type a line to send it to everyone as (admin), '!' to restart the server, an empty line to quit.");

        using var commands = new ConsoleCommands();
        while (await commands.ReadAsync().ConfigureAwait(false) is { } line)
        {
            if (line == "!")
            {
                Console.WriteLine("Server restarting...");
                Console.WriteLine(Restart(server) ? "Done!" : "The server did not restart; it stays stopped.");
                continue;
            }
            server.Multicast($"(admin) {line}\n");
        }

        Console.WriteLine("Server stopping...");
        server.Stop();
        Console.WriteLine("Done!");
        return 0;
    }

    private static bool Restart(ChatServer server)
    {
        try
        {
            return server.Restart();
        }
        catch (SocketException exception)
        {
            // Another process may have taken the port in the moment it was free.
            Console.Error.WriteLine($"The chat server cannot listen again on {server.Endpoint}: {exception.SocketErrorCode}");
            return false;
        }
    }

    private static bool TryParseArguments(string[] args, out IPAddress address, out int port)
    {
        address = IPAddress.Parse(DefaultAddress);
        port = DefaultPort;
        if (args.Length > 2)
            return false;
        if (args.Length >= 1 && !(int.TryParse(args[0], NumberStyles.None, CultureInfo.InvariantCulture, out port) && port <= IPEndPoint.MaxPort))
            return false;
        if (args.Length == 2)
        {
            if (!IPAddress.TryParse(args[1], out var parsed))
                return false;
            address = parsed;
        }
        return true;
    }
}
