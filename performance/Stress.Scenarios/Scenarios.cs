using System;
using System.Diagnostics;
using System.Threading.Tasks;

namespace NetCoreServer.Stress;

/// <summary>
/// The scenarios, one partial file each. Every scenario is bounded in time, starts its own server, and returns one row:
/// whether the server held (the process lives, good clients are served, nothing accepted is lost, memory stays bounded)
/// and the figures that show it. The tests (tests/NetCoreServer.Tests/Reliability/StressScenarioTests.cs) run them at
/// scale 0.1 and assert <see cref="StressResult.Passed"/>.
/// </summary>
internal static partial class Scenarios
{
    /// <summary>Every scenario, in the order the table lists them.</summary>
    public static readonly (string Name, Func<StressProtocol, double, Task<StressResult>> Run)[] All =
    {
        ("churn", ChurnAsync),
        ("descriptor flood", DescriptorFloodAsync),
        ("tls handshake flood", HandshakeFloodAsync),
        ("slow reader", SlowReaderAsync),
        ("stuck reader", StuckReaderAsync),
        ("fast writer", FastWriterAsync),
        ("slowloris", SlowlorisAsync),
        ("burst", BurstAsync),
        ("concurrency", ConcurrencyAsync),
        ("stop", StopUnderLoadAsync),
        ("restart", RestartUnderLoadAsync),
    };

    /// <summary>A scenario by its name in <see cref="All"/>.</summary>
    public static Func<StressProtocol, double, Task<StressResult>> Named(string name) => Array.Find(All, s => s.Name == name).Run;

    /// <summary><paramref name="full"/> (the count at scale 1) scaled, never below <paramref name="minimum"/>.</summary>
    private static int Scaled(int full, double scale, int minimum = 1) => Math.Max(minimum, (int)Math.Round(full * scale));

    /// <summary>A probe taken after a full collection, so heap figures compare live data only.</summary>
    private static ProcessProbe Settled()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        return ProcessProbe.Now();
    }

    /// <summary>Waits (bounded) until the server has no session left.</summary>
    private static async Task<bool> DrainedAsync(IStressServer server, TimeSpan limit)
    {
        var clock = Stopwatch.StartNew();
        while (server.ConnectedSessions > 0 && clock.Elapsed < limit)
            await Task.Delay(50).ConfigureAwait(false);
        return server.ConnectedSessions == 0;
    }
}
