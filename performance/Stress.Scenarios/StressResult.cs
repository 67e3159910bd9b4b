using System;

namespace NetCoreServer.Stress;

/// <summary>
/// One row of the table: a scenario over one protocol, whether it held, its figures and what limited them.
/// <see cref="Passed"/> covers what the server must always do (nothing lost, sessions and descriptors back, memory
/// bounded); <see cref="RatesHeld"/> covers the rate ratios the table also asks for, which the automated tests at a
/// small size leave out (a test asserts no timing).
/// </summary>
internal sealed record StressResult(string Scenario, string Protocol, bool Passed, string Figures, TimeSpan Elapsed, bool RatesHeld = true)
{
    /// <summary>Whether the row held as a whole: its checks and its rates.</summary>
    public bool Held => Passed && RatesHeld;

    public static StressResult Skipped(string scenario, StressProtocol protocol, string why) => new(scenario, protocol.Name, true, "skipped: " + why, TimeSpan.Zero);
}
