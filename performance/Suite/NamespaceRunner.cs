using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.Json;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// Runs the scenarios that multicast to a group (udp) by starting this suite again inside a private network
/// namespace whose only interface is lo (examples/run-in-private-netns.sh), where the servers and clients of those
/// runs live and die; it prints each row as one <see cref="RowPrefix"/> JSON line.
/// </summary>
internal sealed class NamespaceRunner(Layout layout, int seconds)
{
    /// <summary>What starts a row's line in the inner suite's output.</summary>
    public const string RowPrefix = "row ";

    /// <summary>Why the namespace cannot be made here (a missing tool), or null.</summary>
    public static string? Unavailable()
        => Executables.Find("unshare") is null ? "unshare (util-linux) is not installed"
            : Executables.Find("ip") is null ? "ip (iproute2) is not installed"
            : null;

    /// <summary>Runs one scenario in a fresh namespace; the row says why when it could not.</summary>
    public async Task<SuiteRow> RunAsync(Scenario scenario, Action<double> progress)
    {
        if (Unavailable() is { } why)
            return RowBuilder.Failed(scenario, $"skipped: {why} (udp multicast runs only in a private network namespace)");
        var script = Path.Combine(layout.Root, "examples", "run-in-private-netns.sh");
        List<string> arguments = [script, Executables.Dotnet(), Layout.SuiteAssembly, "--inside-namespace", "--no-baselines",
            "--protocol", scenario.Protocol.Name, "--scenario", scenario.Benchmark, "-c", scenario.Clients.ToString(), "-z", seconds.ToString()];
        using var inner = ChildProcess.Start(Executables.Find("bash") ?? "/bin/bash", [.. arguments]);
        var started = DateTime.UtcNow;
        var deadline = started + TimeSpan.FromSeconds(seconds + 120);
        while (!inner.Exited.IsCompleted && DateTime.UtcNow < deadline)
        {
            await Task.WhenAny(inner.Exited, Task.Delay(250)).ConfigureAwait(false);
            // The inner suite starts a server first; the measuring is most of its time.
            progress(Math.Min(1.0, (DateTime.UtcNow - started).TotalSeconds / (seconds + 2)));
        }
        if (!inner.Exited.IsCompleted)
        {
            inner.Kill();
            return RowBuilder.Failed(scenario, "the run in the private network namespace did not finish in time");
        }
        var line = inner.Lines.FirstOrDefault(text => text.StartsWith(RowPrefix, StringComparison.Ordinal));
        if (line is null)
            return RowBuilder.Failed(scenario, $"the run in the private network namespace failed (exit code {inner.ExitCode}): {string.Join(" | ", inner.Lines.TakeLast(5))}");
        return JsonSerializer.Deserialize<SuiteRow>(line[RowPrefix.Length..])!;
    }
}
