using System;
using System.Diagnostics;

namespace NetCoreServer.Performance.Common;

/// <summary>The <c>--stats</c> line of a benchmark server: process totals a script subtracts to get one load window's figures.</summary>
public static class ProcessStats
{
    private static readonly Stopwatch s_clock = Stopwatch.StartNew();

    /// <summary>Prints "stats t=SECONDS allocated=BYTES gen0=N gen1=N gen2=N cpu=SECONDS" on stdout.</summary>
    public static void Print()
    {
        using var process = Process.GetCurrentProcess();
        Console.WriteLine(
            $"stats t={s_clock.Elapsed.TotalSeconds:0.000} allocated={GC.GetTotalAllocatedBytes(precise: false)} " +
            $"gen0={GC.CollectionCount(0)} gen1={GC.CollectionCount(1)} gen2={GC.CollectionCount(2)} " +
            $"cpu={process.TotalProcessorTime.TotalSeconds:0.000} rss={process.WorkingSet64}");
    }
}
