using System.Collections.Generic;
using System.Linq;

namespace NetCoreServer.Performance.Suite;

/// <summary>Gives every row its ratio to the baseline measured in the same run.</summary>
internal static class Baselines
{
    /// <summary>
    /// Within each group (benchmark, protocol, clients, load generator), our row and the raw .NET row are divided by
    /// the C reference when it ran, otherwise our row by the raw .NET one. Failed rows get no ratio and are no baseline.
    /// </summary>
    public static void Apply(IReadOnlyList<SuiteRow> rows)
    {
        foreach (var group in rows.Where(row => row.Measured).GroupBy(row => (row.Group, row.Load)))
        {
            var c = group.FirstOrDefault(row => row.Server == "c");
            var raw = group.FirstOrDefault(row => row.Server == "raw");
            foreach (var row in group)
            {
                var baseline = row.Server switch
                {
                    "ours" => c ?? raw,
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
}
