using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Stress;

namespace NetCoreServer.Performance.Stress;

/// <summary>
/// Runs the hostile-peer scenarios of performance/Stress.Scenarios (churn, floods, slow and stuck readers, fast writer,
/// slowloris, burst, concurrency, stop and restart under load) over tcp, ssl and uds, and prints one table. A scale
/// below 1 shrinks every count and length (the tests run them at 0.1); --quick is --scale 0.2; loopback only.
/// Exit code 0 when every scenario held, 1 otherwise, 2 for bad arguments.
/// </summary>
internal static class Program
{
    private const string Usage = "usage: Stress [--protocol tcp|ssl|uds|tcp-pool|ssl-pool|uds-pool|pool|all] [--scale 0.05-10] [--quick] [--only scenario]";

    private static async Task<int> Main(string[] args)
    {
        var protocols = new List<StressProtocol> { StressProtocol.Tcp, StressProtocol.Ssl, StressProtocol.Uds };
        // The same transports with the sessions on the runtime's thread pool, on request (--protocol tcp-pool, pool).
        var pool = new List<StressProtocol> { StressProtocol.TcpPool, StressProtocol.SslPool, StressProtocol.UdsPool };
        var scale = 1.0;
        string? only = null;
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--protocol" when i + 1 < args.Length:
                    var name = args[++i];
                    if (name == "pool")
                        protocols = pool;
                    else if (name != "all")
                        protocols = protocols.Concat(pool).Where(p => p.Name == name).ToList();
                    break;
                case "--scale" when i + 1 < args.Length:
                    scale = Math.Clamp(double.Parse(args[++i], System.Globalization.CultureInfo.InvariantCulture), 0.05, 10);
                    break;
                case "--quick":
                    scale = 0.2;
                    break;
                case "--only" when i + 1 < args.Length:
                    only = args[++i];
                    break;
                case "--help" or "-h":
                    Console.WriteLine(Usage);
                    Console.WriteLine("scenarios: " + string.Join(", ", Scenarios.All.Select(s => s.Name)));
                    return 0;
                default:
                    Console.Error.WriteLine(Usage);
                    return 2;
            }
        }

        var results = new List<StressResult>();
        foreach (var (name, run) in Scenarios.All.Where(s => only == null || s.Name == only))
        {
            foreach (var protocol in protocols)
            {
                Console.Error.WriteLine($"{name} over {protocol}...");
                StressResult result;
                var clock = Stopwatch.StartNew();
                try
                {
                    result = await run(protocol, scale).ConfigureAwait(false);
                }
                catch (Exception exception)
                {
                    result = new StressResult(name, protocol.Name, false, "threw: " + exception.GetType().Name + ": " + exception.Message, clock.Elapsed);
                }
                results.Add(result);
                Console.Error.WriteLine($"  {(result.Held ? "held" : "FAILED")}: {result.Figures}");
            }
        }

        Console.WriteLine($"| scenario | protocol | held | seconds | figures |");
        Console.WriteLine($"|---|---|---|---|---|");
        foreach (var result in results)
            Console.WriteLine($"| {result.Scenario} | {result.Protocol} | {(result.Held ? "yes" : result.Passed ? "NO (rate)" : "NO")} | {result.Elapsed.TotalSeconds:0.0} | {result.Figures} |");
        return results.All(r => r.Held) ? 0 : 1;
    }
}
