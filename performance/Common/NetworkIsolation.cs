using System;
using System.IO;
using System.Linq;
using System.Net.NetworkInformation;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// Guards the udp multicast benchmarks. On a normal host the loopback interface has no multicast route, so a datagram
/// sent to a multicast group goes out of the default interface onto the real network. The benchmarks therefore run
/// only where <c>lo</c> is the only interface, as in a private network namespace.
/// </summary>
public static class NetworkIsolation
{
    private const string LoopbackName = "lo";
    private const string ProcNetDev = "/proc/net/dev";

    /// <summary>How to get such a namespace, for the refusal message.</summary>
    public const string Advice =
        "run it inside a private network namespace whose only interface is lo, e.g. as root: " +
        "unshare --net sh -c 'ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && <command>' " +
        "(add --map-root-user when not root; build/bench.sh does this)";

    /// <summary>Throws <see cref="UnsafeNetworkException"/> unless both .NET and <c>/proc/net/dev</c> see <c>lo</c> and nothing else.</summary>
    /// <param name="what">What is refused, e.g. "udp multicast", for the message.</param>
    public static void EnsureLoopbackOnly(string what)
    {
        var managed = NetworkInterface.GetAllNetworkInterfaces().Select(nic => nic.Name).Distinct().OrderBy(name => name).ToArray();
        var kernel = KernelInterfaces();
        if (kernel == null)
            throw new UnsafeNetworkException($"{what} refused: {ProcNetDev} cannot be read, so the network cannot be shown to be private; {Advice}");
        foreach (var names in new[] { managed, kernel })
        {
            if (names.Length != 1 || names[0] != LoopbackName)
                throw new UnsafeNetworkException($"{what} refused: multicast could leave this machine through the interfaces {string.Join(", ", names)}; {Advice}");
        }
    }

    // Interface names of /proc/net/dev: two header lines, then "  name: counters..." per interface.
    private static string[]? KernelInterfaces()
    {
        try
        {
            return File.ReadAllLines(ProcNetDev)
                .Skip(2)
                .Select(line => line.Split(':', 2)[0].Trim())
                .Where(name => name.Length > 0)
                .Distinct()
                .OrderBy(name => name, StringComparer.Ordinal)
                .ToArray();
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
