using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Examples;
using NetCoreServer.NetworkIsolation;

namespace UdpMulticastClient;

/// <summary>
/// Joins a multicast group and prints what it receives until the user quits, then leaves the group. Runs only inside a
/// private network namespace whose only interface is lo (see examples/run-in-private-netns.sh); anywhere else it
/// joins nothing (a join announces itself to the network with IGMP) and exits with code 3.
/// </summary>
internal static class Program
{
    private static readonly ExampleUsage s_usage = new("UdpMulticastClient",
        "A UDP multicast client: joins a group and prints every datagram sent to it.",
        "[listen address] [multicast address] [port]",
        $"   (defaults: 0.0.0.0 {MulticastArguments.DefaultGroup} {MulticastArguments.DefaultPort}; the listen address",
        "    chooses IPv4 or IPv6, and the port is bound on any address of that family)",
        "Runs only inside a private network namespace: examples/run-in-private-netns.sh dotnet UdpMulticastClient.dll ...");

    private static async Task<int> Main(string[] args)
    {
        if (ExampleUsage.AsksForHelp(args))
            return s_usage.Help();
        if (!TryParse(args, out var listenAddress, out var group, out var port))
            return s_usage.Error();
        // Before any socket exists: nothing may be joined from the host's namespace.
        if (PrivateNetwork.WhyUnsafe() is { } reason)
            return PrivateNetworkNamespace.Refuse(reason, args);

        using var commands = new ConsoleCommands();
        using var client = new MulticastClient(listenAddress, port);
        PrivateNetworkNamespace.PinToLoopback(client, group);
        if (!client.Connect())
        {
            Console.Error.WriteLine($"The multicast client cannot bind port {port}");
            return 1;
        }
        try
        {
            client.JoinMulticastGroup(group);
        }
        catch (SocketException exception)
        {
            Console.Error.WriteLine($"The multicast client cannot join {group}: {exception.SocketErrorCode}");
            client.Disconnect();
            return 1;
        }
        // Scripts wait for the join line (printed by OnJoinedMulticastGroup) before anything is multicast.
        Console.Out.Flush();
        Console.WriteLine("Every datagram sent to the group is printed. An empty line quits.");

        while (await commands.ReadAsync().ConfigureAwait(false) is not null)
            Console.WriteLine("This client only listens; an empty line quits.");

        Console.WriteLine("Client leaving the group...");
        try
        {
            client.LeaveMulticastGroup(group);
        }
        catch (SocketException exception)
        {
            // Closing the socket below drops the membership anyway.
            Console.Error.WriteLine($"The multicast client cannot leave {group}: {exception.SocketErrorCode}");
        }
        client.Disconnect();
        Console.WriteLine("Done!");
        return 0;
    }

    private static bool TryParse(string[] args, out IPAddress listenAddress, out IPAddress group, out int port)
    {
        listenAddress = IPAddress.Any;
        if (args.Length == 0)
            return MulticastArguments.TryParse(args, out group, out port);
        if (!MulticastArguments.TryParse(args[1..], out group, out port) || !IPAddress.TryParse(args[0], out var parsed))
            return false;
        listenAddress = parsed;
        return listenAddress.AddressFamily == group.AddressFamily;
    }
}
