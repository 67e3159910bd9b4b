using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace UdpEchoServer;

internal static class Program
{
    private const int DefaultPort = 3333;

    private static readonly ExampleUsage s_usage = new("UdpEchoServer", "A UDP echo server: every datagram goes back to its sender.", "[port] [address]",
        $"   (defaults: {DefaultPort} {ChatArguments.DefaultAddress}; port 0 picks a free port)");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!ChatArguments.TryParseServer(args, DefaultPort, out var address, out var port))
            return s_usage.Error();

        using var commands = new ConsoleCommands();
        using var server = new EchoServer(address, port);
        try
        {
            server.Start();
        }
        catch (SocketException exception)
        {
            Console.Error.WriteLine($"The echo server cannot listen on {server.Endpoint}: {exception.SocketErrorCode}");
            return 1;
        }

        // Scripts read the bound port (the real one when port 0 was asked for) from this line, so it must not wait in a buffer.
        Console.WriteLine($"UDP echo server listening on {server.Endpoint}");
        Console.Out.Flush();
        Console.WriteLine("Every datagram goes back to its sender. Type '!' to restart the server, an empty line to quit.");

        await ServerConsoleLoop.RunAsync(
            commands,
            _ => Console.WriteLine("Only '!' (restart) and an empty line (quit) mean something here."),
            () => Restart(server),
            () => server.Stop()).ConfigureAwait(false);
        return 0;
    }

    private static bool Restart(EchoServer server)
    {
        try
        {
            return server.Restart();
        }
        catch (SocketException exception)
        {
            // Another process may have taken the port in the moment it was free.
            Console.Error.WriteLine($"The echo server cannot listen again on {server.Endpoint}: {exception.SocketErrorCode}");
            return false;
        }
    }
}
