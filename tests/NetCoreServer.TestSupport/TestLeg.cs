using System;

namespace NetCoreServer.Testing;

/// <summary>
/// Which leg of build/test.sh runs the tests (NETCORESERVER_TEST_LEG): <c>quick</c> (no peers, no processes),
/// the default, or <c>long</c> (every stress cell at its length). Run by hand, tests are in the default leg.
/// </summary>
public static class TestLeg
{
    private static readonly string s_leg = Environment.GetEnvironmentVariable("NETCORESERVER_TEST_LEG") ?? "default";

    /// <summary>The quick leg: real peers and child processes are not started (their tests are skipped).</summary>
    public static bool IsQuick => s_leg == "quick";

    /// <summary>The long leg, run by hand and before a release: the whole stress matrix.</summary>
    public static bool IsLong => s_leg == "long";

    /// <summary>
    /// The category of the fixtures that measure the whole process (memory, allocation, thread starvation, the stress
    /// scenarios): build/test.sh runs them in a test process of their own, beside the process of the other fixtures.
    /// </summary>
    public const string Isolated = "Isolated";
}
