using System.Collections.Generic;
using System.Linq;

namespace NetCoreServer.Performance.Suite;

/// <summary>Gives every row its ratio to the baseline measured in the same run.</summary>
internal static class Baselines
{
    // The servers a user would run instead of ours: the C reference, Kestrel, node ws.
    private static readonly string[] s_peers = ["c", "kestrel", "node-ws"];

    /// <summary>
    /// Within each group (benchmark, protocol, clients, load generator), our row is divided by the fastest peer that
    /// ran (C reference, Kestrel, node ws), otherwise by the raw .NET row; the raw .NET row by the C reference. Failed
    /// rows get no ratio and are no baseline.
    /// </summary>
    public static void Apply(IReadOnlyList<SuiteRow> rows)
    {
        foreach (var group in rows.Where(row => row.Measured).GroupBy(row => (row.Group, row.Load)))
        {
            var best = group.Where(row => s_peers.Contains(row.Server)).MaxBy(row => row.MessagesPerSecond);
            var c = group.FirstOrDefault(row => row.Server == "c");
            var raw = group.FirstOrDefault(row => row.Server == "raw");
            foreach (var row in group)
            {
                var baseline = row.Server switch
                {
                    "ours" => best ?? raw,
                    "raw" => c,
                    _ => null,
                };
                if (baseline is null || baseline.MessagesPerSecond <= 0)
                    continue;
                row.Baseline = baseline.Server;
                row.Ratio = System.Math.Round(row.MessagesPerSecond / baseline.MessagesPerSecond, 3);
            }
        }
    }

    /// <summary>How the table and the chart name a baseline: C, raw .NET, Kestrel, node ws.</summary>
    public static string Name(string server) => server switch
    {
        "c" => "C",
        "raw" => "raw .NET",
        "kestrel" => "Kestrel",
        "node-ws" => "node ws",
        _ => server,
    };
}
