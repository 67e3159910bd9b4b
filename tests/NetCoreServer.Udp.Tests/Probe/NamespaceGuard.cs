using System;
using System.IO;
using System.Linq;
using System.Net.NetworkInformation;

namespace NetCoreServer.Udp.Probe;

/// <summary>
/// Refuses to let the probe send multicast anywhere but a fresh, private network namespace. On the host, loopback has
/// no multicast route, so a multicast datagram would leave on the real network; in the namespace the test creates,
/// the only interface is lo.
/// </summary>
internal static class NamespaceGuard
{
    /// <summary>Null when this process sees only the loopback interface; otherwise why it must not send.</summary>
    public static string? WhyUnsafe()
    {
        string[] names;
        try
        {
            // /proc/self/net is the network namespace of this process, whatever /sys shows.
            names = File.ReadAllLines("/proc/self/net/dev")
                .Skip(2)
                .Select(line => line.Split(':')[0].Trim())
                .Where(name => name.Length > 0)
                .ToArray();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "cannot read /proc/self/net/dev: " + e.Message;
        }
        if (names.Length != 1 || names[0] != "lo")
            return "interfaces other than lo are present: " + string.Join(", ", names);

        var interfaces = NetworkInterface.GetAllNetworkInterfaces();
        var foreign = interfaces.Where(i => i.NetworkInterfaceType != NetworkInterfaceType.Loopback).Select(i => i.Name).ToArray();
        if (foreign.Length > 0)
            return "non-loopback interfaces are present: " + string.Join(", ", foreign);
        return null;
    }

    /// <summary>Index of lo for IPv6 multicast (1 in a fresh namespace).</summary>
    public static int LoopbackIndex()
    {
        var lo = NetworkInterface.GetAllNetworkInterfaces().FirstOrDefault(i => i.NetworkInterfaceType == NetworkInterfaceType.Loopback);
        try
        {
            return lo?.GetIPProperties().GetIPv6Properties().Index ?? 1;
        }
        catch (NetworkInformationException)
        {
            return 1;
        }
    }
}
