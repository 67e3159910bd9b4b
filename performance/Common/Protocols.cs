using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// The protocols a benchmark may be asked for, their usual ports (the ones NetCoreServer's examples use) and, for uds,
/// the usual socket files.
/// </summary>
public static class Protocols
{
    // One row per protocol, in the order they are listed to the user: its usual port, whether its messages are
    // datagrams that may be dropped (udp), whether it reaches its server through a socket file (uds).
    private static readonly ProtocolInfo[] s_table =
    [
        new("tcp", 1111),
        // TCP whose messages carry a 4-byte big-endian length (MessageFraming.LengthPrefixed(4)): tcp's port, as it is tcp.
        new("framed", 1111),
        new("ssl", 2222),
        // A Unix socket has a path, not a port.
        new("uds", 0, UsesSocketFile: true),
        new("udp", 3333, IsDatagram: true),
        new("ws", 8080),
        new("wss", 8443),
        new("http", 8080),
        new("https", 8443),
        // https offering HTTP/2 by ALPN (h2c needs no name: http serves it to prior-knowledge clients).
        new("h2", 8443),
    ];

    private static readonly Dictionary<string, ProtocolInfo> s_byName = s_table.ToDictionary(row => row.Name, StringComparer.OrdinalIgnoreCase);

    /// <summary>The udp multicast group the multicast benchmarks use when <c>--group</c> is not given: 239.255.0.1 (organisation-local scope).</summary>
    public const string DefaultMulticastGroup = "239.255.0.1";

    /// <summary>The port of the udp multicast group when <c>-p</c> is not given: 3334, beside the udp echo's 3333.</summary>
    public const int DefaultMulticastPort = 3334;

    /// <summary>The largest message of protocol framed: 64 KiB, the default maximum of the library's length-prefixed framing.</summary>
    public const int MaxFramedSize = 64 * 1024;

    /// <summary>The largest udp payload over IPv4: 65,535 minus the IP and UDP headers.</summary>
    public const int MaxDatagramSize = 65_507;

    /// <summary>Every protocol name a benchmark may eventually implement, in the order they are listed to the user.</summary>
    public static IReadOnlyList<string> Known { get; } = s_table.Select(row => row.Name).ToArray();

    /// <summary>True when <paramref name="protocol"/> is one of <see cref="Known"/> (case-insensitive).</summary>
    public static bool IsKnown(string protocol) => s_byName.ContainsKey(protocol);

    /// <summary>The usual port of <paramref name="protocol"/>; 1111 (tcp's) for a name that is not known.</summary>
    public static int DefaultPort(string protocol) => s_byName.TryGetValue(protocol, out var row) ? row.DefaultPort : 1111;

    /// <summary>True for udp, whose datagrams may be dropped.</summary>
    public static bool IsDatagram(string protocol) => s_byName.TryGetValue(protocol, out var row) && row.IsDatagram;

    /// <summary>The usual port of a multicast benchmark: <see cref="DefaultMulticastPort"/> for udp, otherwise <see cref="DefaultPort"/>.</summary>
    public static int DefaultMulticastPortFor(string protocol) => IsDatagram(protocol) ? DefaultMulticastPort : DefaultPort(protocol);

    /// <summary>Null when <paramref name="group"/> is an IPv4 or IPv6 multicast address, otherwise why it is not.</summary>
    public static string? CheckMulticastGroup(string group)
    {
        if (!IPAddress.TryParse(group, out var address))
            return $"the multicast group (--group) must be an IP address, not '{group}'";
        var multicast = address.AddressFamily == AddressFamily.InterNetworkV6
            ? address.IsIPv6Multicast
            : (address.GetAddressBytes()[0] & 0xF0) == 0xE0;
        return multicast ? null : $"the multicast group (--group) must be a multicast address (224.0.0.0/4 or ff00::/8), not {group}";
    }

    /// <summary>True for framed: tcp whose messages each carry a 4-byte big-endian length, sent and received whole.</summary>
    public static bool IsFramed(string protocol) => string.Equals(protocol, "framed", StringComparison.OrdinalIgnoreCase);

    /// <summary>True when <paramref name="protocol"/> reaches its server through a socket file (uds), not an address and a port.</summary>
    public static bool UsesSocketFile(string protocol) => s_byName.TryGetValue(protocol, out var row) && row.UsesSocketFile;

    /// <summary>
    /// The usual socket file of a benchmark's uds server: <c>netcoreserver-<paramref name="benchmark"/>.sock</c> in the
    /// temp folder, e.g. <c>/tmp/netcoreserver-echo.sock</c>. One per benchmark, so that an echo and a multicast server
    /// can run side by side.
    /// </summary>
    public static string DefaultSocketPath(string benchmark) => Path.Combine(Path.GetTempPath(), $"netcoreserver-{benchmark}.sock");

    private sealed record ProtocolInfo(string Name, int DefaultPort, bool IsDatagram = false, bool UsesSocketFile = false);
}
