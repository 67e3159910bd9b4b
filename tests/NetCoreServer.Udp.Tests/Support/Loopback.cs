using System.Net;
using System.Net.Sockets;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests.Support;

internal static class Loopback
{
    /// <summary>The loopback address for a test case; ignores the test when IPv6 loopback is not usable here.</summary>
    public static IPAddress For(string address)
    {
        var ip = IPAddress.Parse(address);
        if (ip.AddressFamily == AddressFamily.InterNetworkV6 && !Ipv6Works())
            Assert.Ignore("IPv6 loopback (::1) is not available on this host");
        return ip;
    }

    /// <summary>A UDP port that was free a moment ago, for peers (socat) that cannot report the port they bound.</summary>
    public static int FreePort() => LoopbackPorts.Free(SocketType.Dgram);

    private static bool Ipv6Works()
    {
        if (!Socket.OSSupportsIPv6)
            return false;
        try
        {
            using var socket = new Socket(AddressFamily.InterNetworkV6, SocketType.Dgram, ProtocolType.Udp);
            socket.Bind(new IPEndPoint(IPAddress.IPv6Loopback, 0));
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
