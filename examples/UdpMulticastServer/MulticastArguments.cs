using System;
using System.Collections.Generic;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Examples;

/// <summary>The <c>[multicast address] [port]</c> that the multicast server takes, and the client after its listen address.</summary>
/// <remarks>Compiled into both UdpMulticastServer and UdpMulticastClient (the client links this file).</remarks>
internal static class MulticastArguments
{
    /// <summary>The group unless told otherwise: in 239.255.0.0/16, the IPv4 scope meant for one organisation's site.</summary>
    public const string DefaultGroup = "239.255.0.1";

    /// <summary>The port the group's members listen on unless told otherwise.</summary>
    public const int DefaultPort = 3334;

    /// <summary>Parses <c>[multicast address] [port]</c>.</summary>
    /// <param name="args">The arguments.</param>
    /// <param name="group">An IPv4 (224.0.0.0/4) or IPv6 (ff00::/8) multicast address.</param>
    /// <param name="port">The group's port.</param>
    /// <returns>False when there are too many arguments, the address is not a multicast one, or the port does not parse.</returns>
    public static bool TryParse(IReadOnlyList<string> args, out IPAddress group, out int port)
    {
        group = IPAddress.Parse(DefaultGroup);
        port = DefaultPort;
        if (args.Count > 2)
            return false;
        if (args.Count >= 1 && !(IPAddress.TryParse(args[0], out var parsed) && IsMulticast(group = parsed)))
            return false;
        return args.Count < 2
            || (int.TryParse(args[1], NumberStyles.None, CultureInfo.InvariantCulture, out port) && port is > 0 and <= IPEndPoint.MaxPort);
    }

    private static bool IsMulticast(IPAddress address) => address.AddressFamily switch
    {
        AddressFamily.InterNetwork => (address.GetAddressBytes()[0] & 0xF0) == 0xE0,
        AddressFamily.InterNetworkV6 => address.IsIPv6Multicast,
        _ => false,
    };
}
