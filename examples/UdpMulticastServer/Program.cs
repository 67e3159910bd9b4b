using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Examples;
using NetCoreServer.NetworkIsolation;

namespace UdpMulticastServer;

/// <summary>
/// Multicasts every console line to a group. Runs only inside a private network namespace whose only interface is
/// lo (see examples/run-in-private-netns.sh); anywhere else it sends nothing and exits with code 3.
/// </summary>
internal static class Program
{
    private static readonly ExampleUsage s_usage = new("UdpMulticastServer",
        "A UDP multicast server: sends every typed line to a multicast group as one datagram.",
        $"[multicast address] [port]   (defaults: {MulticastArguments.DefaultGroup} {MulticastArguments.DefaultPort})",
        "Runs only inside a private network namespace: examples/run-in-private-netns.sh dotnet UdpMulticastServer.dll ...");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!MulticastArguments.TryParse(args, out var group, out var port))
            return s_usage.Error();
        // Before any socket exists: nothing may be sent from the host's namespace.
        if (PrivateNetwork.WhyUnsafe() is { } reason)
            return PrivateNetworkNamespace.Refuse(reason, args);

        using var commands = new ConsoleCommands();
        using var server = new MulticastServer(group);
        PrivateNetworkNamespace.PinToLoopback(server, group);
        try
        {
            server.Start(group, port);
        }
        catch (SocketException exception)
        {
            Console.Error.WriteLine($"The multicast server cannot start: {exception.SocketErrorCode}");
            return 1;
        }

        // Scripts wait for this line before typing, so it must not wait in a buffer.
        Console.WriteLine($"UDP multicast server sending to {server.MulticastEndpoint} from {server.Endpoint}");
        Console.Out.Flush();
        Console.WriteLine("Type a line to multicast it, '!' to restart the server, an empty line to quit.");

        await ServerConsoleLoop.RunAsync(
            commands,
            line => Multicast(server, line),
            () => Restart(server),
            () => server.Stop()).ConfigureAwait(false);
        return 0;
    }

    private static void Multicast(MulticastServer server, string line)
    {
        // One line, one datagram: no newline is needed to tell messages apart.
        if (!server.MulticastAsync(line))
            Console.WriteLine("The line was not sent (the server is stopped or its send queue is full).");
    }

    private static bool Restart(MulticastServer server)
    {
        try
        {
            return server.Restart();
        }
        catch (SocketException exception)
        {
            Console.Error.WriteLine($"The multicast server cannot start again: {exception.SocketErrorCode}");
            return false;
        }
    }
}
