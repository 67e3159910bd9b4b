using System;
using System.Threading.Tasks;

namespace NetCoreServer.Udp.Probe;

/// <summary>
/// Scenarios the UDP tests run in a process of their own: <c>multicast</c> (only inside a private network namespace)
/// and <c>allocations</c> (a fresh process, so nothing else in the test run counts).
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        switch (args.Length > 0 ? args[0] : "")
        {
            case "multicast":
                return await MulticastScenario.Run(args[1..]);
            case "allocations":
                return await AllocationMeasurement.Run();
            default:
                Console.Error.WriteLine("usage: NetCoreServer.Udp.Probe multicast --inside-private-namespace | allocations");
                return 2;
        }
    }
}
