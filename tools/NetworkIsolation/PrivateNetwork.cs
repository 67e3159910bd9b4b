using System;
using System.IO;
using System.Linq;
using System.Net.NetworkInformation;

namespace NetCoreServer.NetworkIsolation;

/// <summary>
/// The one check that keeps multicast on this machine: the multicast tests (the UDP probe), examples and benchmarks
/// send or join only in a private network namespace whose only interface is <c>lo</c>. On this project's machines the
/// host's loopback has no multicast route, so a multicast datagram sent on the host (and the IGMP report of a join)
/// would go out on the real network. There is deliberately no way to override the check.
/// </summary>
/// <remarks>
/// Not part of the library: this file is compiled (linked) into each program that needs it, and each one decides how
/// to refuse (an exit code, an exception, a failed check).
/// </remarks>
internal static class PrivateNetwork
{
    /// <summary>
    /// Run inside a new network namespace (<c>unshare --net</c>), sets <c>lo</c> up for IPv4 multicast; for the
    /// messages that tell how to run safely.
    /// </summary>
    public const string LoopbackSetup = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo";

    private const string LoopbackName = "lo";

    // The network namespace of this process, whatever /sys or the /proc/net of a shell show.
    private const string KernelInterfaceList = "/proc/self/net/dev";

    /// <summary>
    /// Checks that this process runs on Linux and that both the kernel (<c>/proc/self/net/dev</c>) and .NET see the
    /// loopback interface <c>lo</c> and nothing else.
    /// </summary>
    /// <returns>Null when it is safe to send or join multicast; otherwise why not, as one sentence without a final full stop.</returns>
    public static string? WhyUnsafe()
    {
        if (!OperatingSystem.IsLinux())
            return "private network namespaces need Linux";

        string[] kernel;
        try
        {
            // Two header lines, then "  name: counters..." per interface.
            kernel = File.ReadAllLines(KernelInterfaceList)
                .Skip(2)
                .Select(line => line.Split(':', 2)[0].Trim())
                .Where(name => name.Length > 0)
                .ToArray();
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return $"{KernelInterfaceList} cannot be read, so the network cannot be shown to be private ({exception.Message})";
        }
        // Exactly one line, lo: a second lo line would mean a list that cannot be trusted.
        if (kernel is not [LoopbackName])
            return NotOnlyLoopback(KernelInterfaceList, kernel);

        // A second opinion from the runtime's own view, so a /proc that lies (another namespace's, mounted here) is
        // caught. Every interface it lists must be the loopback one named lo, and lo must be there.
        var managed = NetworkInterface.GetAllNetworkInterfaces();
        if (managed.Length == 0 || managed.Any(nic => nic.NetworkInterfaceType != NetworkInterfaceType.Loopback || nic.Name != LoopbackName))
            return NotOnlyLoopback(".NET", managed.Select(nic => $"{nic.Name} ({nic.NetworkInterfaceType})").ToArray());
        return null;
    }

    /// <summary>The index of <c>lo</c>, which IPv6 multicast options take instead of an address.</summary>
    /// <returns>The index; 1 (the index of lo in every new namespace) when it cannot be read.</returns>
    public static int LoopbackIndex()
    {
        var lo = NetworkInterface.GetAllNetworkInterfaces().FirstOrDefault(nic => nic.NetworkInterfaceType == NetworkInterfaceType.Loopback);
        try
        {
            return lo?.GetIPProperties().GetIPv6Properties()?.Index ?? 1;
        }
        catch (NetworkInformationException)
        {
            return 1;
        }
    }

    // The one wording of a refusal for interfaces, whichever view saw them.
    private static string NotOnlyLoopback(string source, string[] interfaces)
        => interfaces.Length == 0
            ? $"{source} lists no network interface, not even lo"
            : $"network interfaces other than the loopback lo are present: {source} lists {string.Join(", ", interfaces)}";
}
