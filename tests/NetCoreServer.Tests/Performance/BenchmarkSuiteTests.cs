using System;
using System.IO;
using System.Linq;
using System.Text.Json;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Performance;

/// <summary>
/// performance/Suite, the README's first command, run as a user runs it (its built assembly through dotnet) in its
/// quickest mode on one protocol (tcp), and on the HTTP/2 rows: it must finish in bounded time and write a report whose
/// rows a reader would trust.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class BenchmarkSuiteTests
{
    // Ten runs of one second (ours, raw .NET, C), each with a server and a client start-up, on a loaded 2-core machine.
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(240);

    /// <summary>The dotnet host and the built suite program; the test is ignored outside a source tree.</summary>
    private static (string Dotnet, string Suite) SuiteProgram()
    {
        var root = SourceTree.Root();
        if (root is null)
            Assert.Ignore($"no NetCoreServer.sln above {AppContext.BaseDirectory}, so there is no suite to run");
        var dotnet = SourceTree.DotnetHost() ?? throw new InvalidOperationException("no dotnet host");
        var suite = Path.Combine(root!, "performance", "Suite", "bin", "Release", "net10.0", "NetCoreServer.Performance.Suite.dll");
        Assert.That(File.Exists(suite), Is.True, $"{suite} is built with the solution (dotnet build NetCoreServer.sln -c Release)");
        return (dotnet, suite);
    }

    [Test]
    public async Task TheQuickestSuiteRunOverTcpWritesMeasuredRowsWithBaselinesJsonMarkdownAndAChart()
    {
        var (dotnet, suite) = SuiteProgram();

        var output = Path.Combine(Path.GetTempPath(), $"netcoreserver-suite-test-{Guid.NewGuid():N}");
        try
        {
            var result = await ExternalTool.Run(dotnet, [suite, "--protocol", "tcp", "--seconds", "1", "--out", output], s_timeout);
            Assert.That(result.ExitCode, Is.EqualTo(0), $"the suite's exit code; output:{Environment.NewLine}{result}");

            using var report = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "suite.json")));
            var rows = report.RootElement.GetProperty("rows").EnumerateArray().ToArray();
            foreach (var benchmark in new[] { "echo", "multicast" })
            {
                foreach (var clients in new[] { 1, 100 })
                {
                    var ours = rows.SingleOrDefault(row => Matches(row, benchmark, clients, "ours"));
                    Assert.That(ours.ValueKind, Is.EqualTo(JsonValueKind.Object), $"a row for our {benchmark} server with {clients} clients");
                    AssertMeasured(ours, $"our {benchmark} with {clients} clients");
                    Assert.That(ours.GetProperty("allocated_bytes_per_message").GetDouble(), Is.InRange(0.0, 10_000.0),
                        $"allocated bytes per message of our {benchmark} server with {clients} clients");
                }
            }

            // The raw .NET baseline runs for echo in the same suite, and our echo rows carry a ratio to a baseline.
            foreach (var clients in new[] { 1, 100 })
            {
                var raw = rows.Single(row => Matches(row, "echo", clients, "raw"));
                AssertMeasured(raw, $"the raw .NET echo with {clients} clients");
                var ours = rows.Single(row => Matches(row, "echo", clients, "ours"));
                var baseline = rows.Single(row => Matches(row, "echo", clients, ours.GetProperty("baseline").GetString()!));
                Assert.That(ours.GetProperty("ratio").GetDouble(),
                    Is.EqualTo(ours.GetProperty("msg_per_s").GetDouble() / baseline.GetProperty("msg_per_s").GetDouble()).Within(0.01),
                    $"our echo's ratio with {clients} clients is its msg/s over its baseline's");
            }

            // The C references ship with the repository (performance/peers): wherever cc is, a clone has their rows.
            if (ExternalTool.Find("cc") is not null)
            {
                foreach (var (benchmark, clients) in new[] { ("echo", 1), ("echo", 100), ("multicast", 1), ("multicast", 100) })
                    AssertMeasured(rows.Single(row => Matches(row, benchmark, clients, "c")), $"the C {benchmark} reference with {clients} clients");
            }

            var markdown = File.ReadAllText(Path.Combine(output, "suite.md"));
            Assert.That(markdown, Does.Contain("| scenario | server | load | msg/s |").And.Contain("echo tcp ×100"), "the Markdown table");
            var png = File.ReadAllBytes(Path.Combine(output, "suite.png"));
            Assert.That(png.Take(8), Is.EqualTo(new byte[] { 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A }), "suite.png starts with the PNG signature");
            Assert.That(png.Length, Is.GreaterThan(10_000), "the chart has content");
        }
        finally
        {
            if (Directory.Exists(output))
                Directory.Delete(output, recursive: true);
        }
    }

    [Test]
    public async Task TheHttp2RowsMeasureOursAndKestrelUnderH2loadOverH2cAndH2()
    {
        ExternalTool.Require("h2load");
        var (dotnet, suite) = SuiteProgram();

        var output = Path.Combine(Path.GetTempPath(), $"netcoreserver-suite-test-{Guid.NewGuid():N}");
        try
        {
            // Eight runs of one second (ours and Kestrel, h2c and h2, 1 and 100 clients): about 20 s.
            var result = await ExternalTool.Run(dotnet, [suite, "--protocol", "h2c,h2", "--scenario", "echo", "--seconds", "1", "--out", output], s_timeout);
            Assert.That(result.ExitCode, Is.EqualTo(0), $"the suite's exit code; output:{Environment.NewLine}{result}");

            using var report = JsonDocument.Parse(File.ReadAllText(Path.Combine(output, "suite.json")));
            var rows = report.RootElement.GetProperty("rows").EnumerateArray().ToArray();
            foreach (var protocol in new[] { "h2c", "h2" })
            {
                foreach (var clients in new[] { 1, 100 })
                {
                    var ours = rows.Single(row => Matches(row, "echo", clients, "ours", protocol));
                    var kestrel = rows.Single(row => Matches(row, "echo", clients, "kestrel", protocol));
                    AssertMeasured(ours, $"our {protocol} server with {clients} clients");
                    AssertMeasured(kestrel, $"Kestrel over {protocol} with {clients} clients");
                    Assert.That(ours.GetProperty("load").GetString(), Is.EqualTo("h2load"), "the load client of the HTTP/2 rows");
                    Assert.That(ours.GetProperty("baseline").GetString(), Is.EqualTo("kestrel"), $"our {protocol} row with {clients} clients is measured against Kestrel");
                    Assert.That(ours.GetProperty("ratio").GetDouble(),
                        Is.EqualTo(ours.GetProperty("msg_per_s").GetDouble() / kestrel.GetProperty("msg_per_s").GetDouble()).Within(0.01),
                        $"our {protocol} ratio with {clients} clients is its requests/s over Kestrel's");
                }
            }
            Assert.That(File.ReadAllText(Path.Combine(output, "suite.md")), Does.Contain("echo h2c ×100").And.Contain("echo h2 ×1"), "the Markdown table");
        }
        finally
        {
            if (Directory.Exists(output))
                Directory.Delete(output, recursive: true);
        }
    }

    private static bool Matches(JsonElement row, string benchmark, int clients, string server, string protocol = "tcp")
        => row.GetProperty("benchmark").GetString() == benchmark && row.GetProperty("protocol").GetString() == protocol
            && row.GetProperty("clients").GetInt32() == clients && row.GetProperty("server").GetString() == server;

    private static void AssertMeasured(JsonElement row, string what)
    {
        Assert.That(row.TryGetProperty("failure", out var failure), Is.False, $"{what} was measured, but: {(failure.ValueKind == JsonValueKind.String ? failure.GetString() : "")}");
        Assert.That(row.GetProperty("msg_per_s").GetDouble(), Is.GreaterThan(1000), $"{what}: messages per second");
        Assert.That(row.GetProperty("errors").GetInt64(), Is.EqualTo(0), $"{what}: errors");
        // Read from /proc in clock ticks (10 ms): one client for one second on a loaded machine can leave a C server under
        // one tick, so only a hundred clients must show some.
        var cpu = row.GetProperty("server_cpu_seconds").GetDouble();
        Assert.That(cpu, row.GetProperty("clients").GetInt32() > 1 ? Is.GreaterThan(0) : Is.GreaterThanOrEqualTo(0), $"{what}: server CPU seconds while loaded");
    }
}
