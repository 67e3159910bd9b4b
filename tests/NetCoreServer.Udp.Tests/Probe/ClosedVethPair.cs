using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net.NetworkInformation;
using System.Threading;

namespace NetCoreServer.Udp.Probe;

/// <summary>
/// A veth pair whose two ends both stay in this private network namespace, for IPv6 multicast: Linux does not
/// deliver IPv6 multicast sent on lo back to lo's members, but it does loop back what is sent on any other interface.
/// Created only after <see cref="NetworkIsolation.PrivateNetwork.WhyUnsafe"/> has shown that lo was the only
/// interface, so neither end can have a path out of the machine: what goes out of one end arrives at the other, here.
/// </summary>
internal static class ClosedVethPair
{
    public const string Name = "ncs6a";
    private const string Peer = "ncs6b";

    // IPv6 needs a link-local source address, which stays "tentative" until duplicate address detection ends (~1-2 s).
    private static readonly TimeSpan s_addressTimeout = TimeSpan.FromSeconds(15);
    private static readonly TimeSpan s_commandTimeout = TimeSpan.FromSeconds(10);
    private const int TentativeFlag = 0x40;

    /// <summary>Creates the pair and waits for its usable IPv6 address.</summary>
    /// <returns>The interface index of <see cref="Name"/>, or null with <paramref name="why"/> when it cannot be made here.</returns>
    public static int? Create(out string why)
    {
        var ip = Environment.GetEnvironmentVariable("NCS_IP");
        if (string.IsNullOrEmpty(ip))
        {
            why = "NCS_IP (the path of ip) is not set";
            return null;
        }
        foreach (var command in new[]
        {
            new[] { "link", "add", Name, "type", "veth", "peer", "name", Peer },
            new[] { "link", "set", Peer, "up" },
            new[] { "link", "set", Name, "up" },
        })
        {
            if (Run(ip, command) is { } failure)
            {
                why = $"ip {string.Join(' ', command)} failed: {failure}";
                return null;
            }
        }

        var deadline = DateTime.UtcNow + s_addressTimeout;
        while (!HasUsableAddress())
        {
            if (DateTime.UtcNow > deadline)
            {
                why = $"{Name} got no usable IPv6 link-local address within {s_addressTimeout.TotalSeconds:0} s";
                return null;
            }
            Thread.Sleep(100);
        }
        why = "";
        return NetworkInterface.GetAllNetworkInterfaces().First(i => i.Name == Name).GetIPProperties().GetIPv6Properties().Index;
    }

    // /proc/net/if_inet6: address, index, prefix length, scope, flags, name (hexadecimal fields).
    private static bool HasUsableAddress()
        => File.ReadLines("/proc/self/net/if_inet6")
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Any(f => f.Length >= 6 && f[5] == Name && (Convert.ToInt32(f[4], 16) & TentativeFlag) == 0);

    private static string? Run(string ip, string[] arguments)
    {
        var start = new ProcessStartInfo(ip) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var argument in arguments)
            start.ArgumentList.Add(argument);
        using var process = Process.Start(start)!;
        var errors = process.StandardError.ReadToEndAsync();
        process.StandardOutput.ReadToEnd();
        if (!process.WaitForExit(s_commandTimeout))
        {
            process.Kill();
            return "timed out";
        }
        return process.ExitCode == 0 ? null : $"exit {process.ExitCode} {errors.Result.Trim()}";
    }
}
