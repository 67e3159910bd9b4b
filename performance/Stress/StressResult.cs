using System;

namespace NetCoreServer.Performance.Stress;

/// <summary>One row of the table: a scenario over one protocol, whether it held, its figures and what limited them.</summary>
internal sealed record StressResult(string Scenario, string Protocol, bool Passed, string Figures, TimeSpan Elapsed)
{
    public static StressResult Skipped(string scenario, StressProtocol protocol, string why) => new(scenario, protocol.Name, true, "skipped: " + why, TimeSpan.Zero);
}
