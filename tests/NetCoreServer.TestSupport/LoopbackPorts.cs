using System;
using System.Globalization;
using System.IO;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Testing;

/// <summary>
/// Loopback ports for peers that must be told a port before they bind it (redis-server, socat) and for a port that must
/// stay closed: one nothing is bound to now, below the kernel's ephemeral range. A port the kernel picked (port 0, or
/// a client socket's local port) could be taken again by a parallel test before the peer binds it; below that range
/// only another explicit choice can collide, and callers that start a peer still check that it bound.
/// </summary>
public static class LoopbackPorts
{
    private const int Lowest = 20_000;

    /// <summary>A free port of <paramref name="type"/> (TCP for streams, UDP for datagrams).</summary>
    public static int Free(SocketType type = SocketType.Stream)
    {
        var below = EphemeralLow();
        for (var attempt = 0; attempt < 200 && below > Lowest; attempt++)
        {
            var port = Random.Shared.Next(Lowest, below);
            if (CanBind(type, port))
                return port;
        }
        using var fallback = Open(type);
        fallback.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)fallback.LocalEndPoint!).Port;
    }

    /// <summary>The first port of the kernel's ephemeral range (32768 when it cannot be read).</summary>
    public static int EphemeralLow()
    {
        try
        {
            var range = File.ReadAllText("/proc/sys/net/ipv4/ip_local_port_range").Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries);
            return int.Parse(range[0], CultureInfo.InvariantCulture);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return 32768;
        }
    }

    private static Socket Open(SocketType type)
        => new(AddressFamily.InterNetwork, type, type == SocketType.Dgram ? ProtocolType.Udp : ProtocolType.Tcp);

    private static bool CanBind(SocketType type, int port)
    {
        try
        {
            using var probe = Open(type);
            probe.Bind(new IPEndPoint(IPAddress.Loopback, port));
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
