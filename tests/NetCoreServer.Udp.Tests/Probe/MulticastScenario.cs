using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.NetworkIsolation;

namespace NetCoreServer.Udp.Probe;

/// <summary>
/// The UDP multicast scenario. Run by the NUnit multicast test inside a private network namespace it created
/// (unshare --net); prints one line per check ("PASS name: detail", "FAIL ...", "SKIP ...") and returns 0 when nothing
/// failed. It sends nothing unless it can see that it is in such a namespace.
/// </summary>
internal static class MulticastScenario
{
    public const string InsideNamespaceFlag = "--inside-private-namespace";

    private static readonly TimeSpan s_deliveryTimeout = TimeSpan.FromSeconds(5);
    private static readonly TimeSpan s_resendInterval = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan s_silenceWindow = TimeSpan.FromMilliseconds(300);
    private static int s_failures;

    public static async Task<int> Run(string[] args)
    {
        if (args.Length != 1 || args[0] != InsideNamespaceFlag)
        {
            Console.Error.WriteLine($"usage: run by the multicast test as 'unshare --net ... multicast {InsideNamespaceFlag}'; it never sends multicast on the host.");
            return 2;
        }
        var unsafeReason = PrivateNetwork.WhyUnsafe();
        if (unsafeReason != null)
        {
            Console.WriteLine($"FAIL namespace: refusing to send multicast: {unsafeReason}");
            return 3;
        }
        Report(true, "namespace", "only lo is present");

        var loIndex = PrivateNetwork.LoopbackIndex();
        await Scenario("ipv4", IPAddress.Any, IPAddress.Parse("239.255.0.1"), 33301, loIndex);
        // lo is checked and the IPv4 members are gone: now the pair whose ends both stay here, for IPv6.
        if (ClosedVethPair.Create(out var why) is { } vethIndex)
            await Scenario("ipv6", IPAddress.IPv6Any, IPAddress.Parse("ff15::1"), 33302, vethIndex);
        else
            Console.WriteLine($"SKIP ipv6: no interface for IPv6 multicast in this namespace ({why})");
        Console.WriteLine(s_failures == 0 ? "DONE all checks passed" : $"DONE {s_failures} check(s) failed");
        return s_failures == 0 ? 0 : 1;
    }

    /// <summary>
    /// A server multicasts to a group; two members receive; one leaves and then receives nothing more while the other
    /// still does. Every wait is bounded.
    /// </summary>
    private static async Task Scenario(string family, IPAddress any, IPAddress group, int port, int interfaceIndex)
    {
        var ipv6 = group.AddressFamily == AddressFamily.InterNetworkV6;
        UdpServer? server = null;
        UdpServer? byIndex = null;
        Receiver? a = null;
        Receiver? b = null;
        try
        {
            server = new UdpServer(any, 0);
            a = new Receiver("A", any, port);
            b = new Receiver("B", any, port);
            // Pin everything to one interface: lo by address for IPv4 (and for member A by index too), the veth end by
            // index for IPv6.
            if (ipv6)
            {
                server.OptionMulticastInterfaceIndex = interfaceIndex;
                a.OptionMulticastInterfaceIndex = interfaceIndex;
                b.OptionMulticastInterfaceIndex = interfaceIndex;
            }
            else
            {
                server.OptionMulticastInterface = IPAddress.Loopback;
                a.OptionMulticastInterfaceIndex = interfaceIndex;
                b.OptionMulticastInterface = IPAddress.Loopback;
            }
            if (!server.Start(group, port))
                throw new InvalidOperationException("server did not start");
            if (!a.Connect() || !b.Connect())
                throw new InvalidOperationException($"members did not connect ({a.LastError} {b.LastError})");
            a.JoinMulticastGroup(group);
            b.JoinMulticastGroup(group);
            Report(a.Joined == 1 && b.Joined == 1, $"{family}-join", "OnJoinedMulticastGroup raised once per member");

            var both = await Deliver(server, $"{family}-hello", a, b);
            Report(both, $"{family}-both-members-receive", "Multicast reached both members");
            Report(server.DatagramsSent > 0 && a.DatagramsReceived > 0 && b.DatagramsReceived > 0, $"{family}-counters",
                $"server sent {server.DatagramsSent}, A received {a.DatagramsReceived}, B received {b.DatagramsReceived}");

            var asyncDelivered = await Deliver(server, $"{family}-async", useAsync: true, a, b);
            Report(asyncDelivered, $"{family}-multicast-async", "MulticastAsync reached both members");

            a.LeaveMulticastGroup(group);
            Report(a.Left == 1, $"{family}-leave", "OnLeftMulticastGroup raised");

            var stillMember = await Deliver(server, $"{family}-after-leave", b);
            // B has the datagram; A, on the same host and interface, would have had it by now had it still been a member.
            await Task.Delay(s_silenceWindow);
            Report(stillMember, $"{family}-remaining-member-receives", "B still receives after A left");
            Report(!a.Saw(t => t.StartsWith($"{family}-after-leave", StringComparison.Ordinal)), $"{family}-left-member-receives-nothing",
                "A received nothing after leaving");

            if (!ipv6)
            {
                byIndex = new UdpServer(any, 0) { OptionMulticastInterfaceIndex = interfaceIndex };
                byIndex.Start(group, port);
                Report(await Deliver(byIndex, $"{family}-by-index", b), $"{family}-interface-by-index",
                    "a server choosing lo by interface index reaches B");
            }
        }
        catch (Exception e)
        {
            Report(false, $"{family}-scenario", $"{e.GetType().Name}: {e.Message}");
        }
        finally
        {
            a?.Dispose();
            b?.Dispose();
            server?.Dispose();
            byIndex?.Dispose();
        }
    }

    private static Task<bool> Deliver(UdpServer server, string text, params Receiver[] members)
        => Deliver(server, text, useAsync: false, members);

    /// <summary>Multicasts <paramref name="text"/> (again every 250 ms, at most 5 s) until every member has it.</summary>
    private static async Task<bool> Deliver(UdpServer server, string text, bool useAsync, params Receiver[] members)
    {
        var all = Task.WhenAll(members.Select(m => m.WhenReceived(text)));
        var deadline = DateTime.UtcNow + s_deliveryTimeout;
        while (DateTime.UtcNow < deadline)
        {
            if (useAsync)
                server.MulticastAsync(text);
            else
                server.Multicast(text);
            if (await Task.WhenAny(all, Task.Delay(s_resendInterval)) == all)
                return true;
        }
        return all.IsCompleted;
    }

    private static void Report(bool passed, string name, string detail)
    {
        if (!passed)
            s_failures++;
        Console.WriteLine($"{(passed ? "PASS" : "FAIL")} {name}: {detail}");
    }
}
