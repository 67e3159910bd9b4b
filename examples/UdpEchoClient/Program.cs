using System;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace UdpEchoClient;

internal static class Program
{
    private const int DefaultPort = 3333;

    private static readonly ExampleUsage s_usage = new("UdpEchoClient", "A UDP echo client: sends each typed line as one datagram, prints what comes back.", "[address] [port]",
        $"   (defaults: {ChatArguments.DefaultAddress} {DefaultPort})");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseClient(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var commands = new ConsoleCommands();
        using var client = new EchoClient(address, port);
        // UDP has no connection: this opens the socket (and resolves a host name), nothing is sent.
        if (!client.Connect())
        {
            Console.Error.WriteLine($"The echo client cannot open a socket for {address}:{port}");
            return 1;
        }
        Console.WriteLine("Type a line to send it as one datagram, '!' to open a new socket, an empty line to quit.");
        Console.WriteLine("Nothing comes back when no server listens: UDP does not tell.");

        while (await commands.ReadAsync().ConfigureAwait(false) is { } line)
        {
            if (line == "!")
            {
                Console.WriteLine("Client reconnecting...");
                if (!client.Reconnect())
                    Console.WriteLine("The client could not open a new socket.");
                continue;
            }
            if (!client.SendAsync(line))
                Console.WriteLine("The line was not sent (no socket, or the send queue is full).");
        }

        Console.WriteLine("Client disconnecting...");
        client.Disconnect();
        Console.WriteLine("Done!");
        return 0;
    }
}
