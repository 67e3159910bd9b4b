using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// Multicast, run only inside a private network namespace this test creates. The host's loopback has no multicast
/// route, so a multicast datagram sent on the host would go out on the real network. The scenario therefore runs in a
/// child process (tests/NetCoreServer.Udp.Tests/Probe, "multicast") started by <c>unshare --net</c> after lo is set up with
/// multicast routes; the probe itself checks that lo is its only interface before it sends anything. Nothing in this
/// process sends multicast, on any path.
/// </summary>
[TestFixture]
public sealed class MulticastNamespaceTests
{
    private const string Ready = "NAMESPACE-READY";

    // Runs inside the new namespace: lo up with multicast and a route for IPv4 groups, then the probe (which, once it
    // has seen that lo is alone, adds a veth pair of its own for IPv6: Linux does not loop IPv6 multicast through lo).
    private const string Setup =
        "\"$NCS_IP\" link set lo up && \"$NCS_IP\" link set lo multicast on && \"$NCS_IP\" route add 224.0.0.0/4 dev lo " +
        "|| { echo 'setting up lo in the namespace failed' >&2; exit 97; }; " +
        "echo " + Ready + " && exec \"$0\" \"$@\"";

    [Test]
    public async Task MembersReceiveAMulticastGroupUntilTheyLeaveIt()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("private network namespaces need Linux");
        var unshare = ExternalTool.Find("unshare") ?? Ignore("unshare is not installed (package util-linux; build/test.sh installs it)");
        var ip = ExternalTool.Find("ip") ?? new[] { "/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip" }.FirstOrDefault(File.Exists)
            ?? Ignore("ip is not installed (package iproute2; build/test.sh installs it)");
        var probe = ProbeProcess.Assembly;

        // As root a plain new namespace; otherwise a user namespace maps us to root inside it.
        var arguments = IsRoot()
            ? new[] { "--net" }
            : new[] { "--net", "--map-root-user" };
        var (exit, output, errors) = await ExternalTool.Run(unshare,
            [.. arguments, "/bin/sh", "-c", Setup, ProbeProcess.DotnetHost, "exec", probe, "multicast", "--inside-private-namespace"],
            TimeSpan.FromSeconds(120), null, ("NCS_IP", ip));
        TestContext.Out.WriteLine(output);
        if (!output.Contains(Ready))
            Assert.Ignore($"cannot create a private network namespace here (unshare exit {exit}): {errors.Trim()}");

        var lines = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        Assert.That(lines.Where(l => l.StartsWith("FAIL", StringComparison.Ordinal)), Is.Empty, $"failed checks; stderr: {errors}");
        Assert.That(exit, Is.EqualTo(0), $"probe exit code; stderr: {errors}");
        foreach (var check in new[]
        {
            "namespace", "ipv4-join", "ipv4-both-members-receive", "ipv4-multicast-async", "ipv4-leave",
            "ipv4-remaining-member-receives", "ipv4-left-member-receives-nothing", "ipv4-interface-by-index",
        })
        {
            Assert.That(lines, Has.Some.StartsWith($"PASS {check}:"), $"check {check} passed");
        }
        // IPv6 needs a veth pair inside the namespace; where the kernel has no veth, the probe says so and skips it.
        if (lines.FirstOrDefault(l => l.StartsWith("SKIP ipv6:", StringComparison.Ordinal)) is { } skipped)
        {
            TestContext.Out.WriteLine("note: " + skipped);
            return;
        }
        foreach (var check in new[]
        {
            "ipv6-join", "ipv6-both-members-receive", "ipv6-multicast-async", "ipv6-leave",
            "ipv6-remaining-member-receives", "ipv6-left-member-receives-nothing",
        })
        {
            Assert.That(lines, Has.Some.StartsWith($"PASS {check}:"), $"check {check} passed");
        }
    }

    private static string Ignore(string message)
    {
        Assert.Ignore(message);
        return message;
    }

    private static bool IsRoot()
    {
        try
        {
            // The effective uid is the second number on the Uid line.
            var line = File.ReadLines("/proc/self/status").FirstOrDefault(l => l.StartsWith("Uid:", StringComparison.Ordinal));
            return line != null && line.Split('\t', StringSplitOptions.RemoveEmptyEntries)[2] == "0";
        }
        catch (IOException)
        {
            return false;
        }
    }
}
