using System;
using System.Collections.Generic;
using System.Linq;
using ScottPlot;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// Draws the suite's rows as a PNG: one group of horizontal bars per scenario (ours, raw .NET, C, Kestrel, node ws),
/// msg/s on a logarithmic axis so that 10K and 80M both read, each bar labelled with its rate, ours also with its ratio
/// to the group's baseline (see <see cref="Baselines"/>).
/// </summary>
internal static class ChartWriter
{
    private const int Width = 1100;

    private static readonly (string Server, string Name, Color Color)[] s_series =
    [
        ("ours", "NetCoreServer", Color.FromHex("#1f77b4")),
        ("raw", "raw .NET Socket", Color.FromHex("#9a9a9a")),
        ("c", "C epoll reference", Color.FromHex("#ff7f0e")),
        ("kestrel", "Kestrel", Color.FromHex("#9467bd")),
        ("node-ws", "node ws", Color.FromHex("#2ca02c")),
    ];

    /// <summary>Writes the chart of the measured rows to <paramref name="path"/>; false when no row was measured.</summary>
    public static bool Write(IReadOnlyList<SuiteRow> rows, string path, string title)
    {
        var groups = rows.Where(row => row.Measured && row.MessagesPerSecond > 0)
            .GroupBy(row => row.Group + (row.Load is "echo_load" or "mcast_load" ? " (C load)" : ""))
            .ToList();
        if (groups.Count == 0)
            return false;

        // The axis starts one decade below the slowest row, so that short bars still differ visibly.
        var floor = Math.Max(0, Math.Floor(groups.SelectMany(group => group).Min(row => Math.Log10(row.MessagesPerSecond))) - 1);
        var plot = new Plot();
        var bars = new List<Bar>();
        var ticks = new List<Tick>();
        // From the bottom up, so the first group is on top; each group as tall as its bars, plus a gap.
        var position = 0.0;
        for (var g = groups.Count - 1; g >= 0; g--)
        {
            var present = s_series.Select(series => (Series: series, Row: groups[g].FirstOrDefault(row => row.Server == series.Server)))
                .Where(pair => pair.Row is not null)
                .Reverse()
                .ToList();
            ticks.Add(new Tick(position + (present.Count - 1) / 2.0, groups[g].Key, isMajor: true));
            foreach (var (series, row) in present)
            {
                bars.Add(new Bar
                {
                    Position = position++,
                    Value = Math.Log10(row!.MessagesPerSecond),
                    ValueBase = floor,
                    FillColor = series.Color,
                    LineWidth = 0,
                    Size = 0.9,
                    Label = row.Ratio is null ? Format.Rate(row.MessagesPerSecond) : $"{Format.Rate(row.MessagesPerSecond)} ({Format.Ratio(row)})",
                });
            }
            position += 1;
        }

        var plottable = plot.Add.Bars(bars);
        plottable.Horizontal = true;
        plottable.ValueLabelStyle.FontSize = 11;

        plot.Axes.Left.TickGenerator = new ScottPlot.TickGenerators.NumericManual(ticks.ToArray());
        plot.Axes.Left.MajorTickStyle.Length = 0;
        string[] names = ["1", "10", "100", "1K", "10K", "100K", "1M", "10M", "100M", "1G", "10G"];
        var decades = Enumerable.Range(0, names.Length).Select(power => new Tick(power, names[power], isMajor: true)).ToArray();
        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(decades);
        plot.Axes.Bottom.Label.Text = "messages per second (log scale)";
        var highest = bars.Max(bar => bar.Value);
        plot.Axes.SetLimitsX(floor, Math.Ceiling(highest + 0.3) + 0.1);
        plot.Axes.SetLimitsY(-1, position - 1);
        plot.Title(title);

        foreach (var (_, name, color) in s_series.Where(series => rows.Any(row => row.Measured && row.Server == series.Server)))
            plot.Legend.ManualItems.Add(new LegendItem { LabelText = name, FillColor = color });
        plot.ShowLegend(Edge.Bottom);

        plot.SavePng(path, Width, 130 + (int)position * 20);
        return true;
    }
}
