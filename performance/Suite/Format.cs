using System.Globalization;

namespace NetCoreServer.Performance.Suite;

/// <summary>How the table and the Markdown write each figure, the same in both.</summary>
internal static class Format
{
    /// <summary>The column titles, in order.</summary>
    public static readonly string[] Columns = ["scenario", "server", "load", "msg/s", "MiB/s", "errors", "alloc B/msg", "server CPU s", "vs baseline"];

    /// <summary>The row's cells, in the order of <see cref="Columns"/>; a failed row says why in the figures' place.</summary>
    public static string[] Cells(SuiteRow row)
    {
        var scenario = row.Group;
        if (!row.Measured)
            return [scenario, row.ServerName, row.Load, "—", "—", "—", "—", "—", row.Failure!];
        return
        [
            scenario,
            row.ServerName,
            row.Load,
            Rate(row.MessagesPerSecond),
            row.MebibytesPerSecond.ToString("0.0", CultureInfo.InvariantCulture),
            row.Lost is { } lost ? $"{row.Errors} ({lost} lost)" : row.Errors.ToString(CultureInfo.InvariantCulture),
            row.AllocatedBytesPerMessage is { } bytes ? bytes.ToString("0.00", CultureInfo.InvariantCulture) : "—",
            row.ServerCpuSeconds is { } cpu ? cpu.ToString("0.00", CultureInfo.InvariantCulture) : "—",
            Ratio(row),
        ];
    }

    /// <summary>"0.56× C", "1.10× Kestrel", or empty without a baseline.</summary>
    public static string Ratio(SuiteRow row) => row.Ratio is { } ratio
        ? $"{ratio.ToString("0.00", CultureInfo.InvariantCulture)}× {Baselines.Name(row.Baseline!)}"
        : "";

    /// <summary>A message rate with a K or M suffix, three significant figures.</summary>
    public static string Rate(double perSecond) => perSecond switch
    {
        >= 1e6 => (perSecond / 1e6).ToString(perSecond >= 1e8 ? "0" : perSecond >= 1e7 ? "0.0" : "0.00", CultureInfo.InvariantCulture) + "M",
        >= 1e3 => (perSecond / 1e3).ToString(perSecond >= 1e5 ? "0" : perSecond >= 1e4 ? "0.0" : "0.00", CultureInfo.InvariantCulture) + "K",
        _ => perSecond.ToString("0", CultureInfo.InvariantCulture),
    };
}
