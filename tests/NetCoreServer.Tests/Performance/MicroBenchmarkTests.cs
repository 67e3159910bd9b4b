using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Performance;

/// <summary>
/// performance/Benchmarks' socket-free micro-benchmarks, run as a user runs them (the built program through dotnet)
/// in BenchmarkDotNet's quickest mode: one setup and one operation each, in process. Every benchmark's setup checks
/// that one operation does what it claims (the echo comes back unchanged, all 100 sessions send the multicast in
/// order, each frame decodes back to its text, the response arrives whole), and the program exits 1 when any failed,
/// so this catches a benchmark that measures something broken, not only one that does not start.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class MicroBenchmarkTests
{
    // About 7 s on an idle 2-core machine; the bound leaves room for a loaded one.
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(180);

    private static readonly Dictionary<string, string[]> s_benchmarks = new()
    {
        ["SendQueueBenchmarks"] = ["AppendAndFlush", "AppendLogAndFlush"],
        ["EngineRoundTripBenchmarks"] = ["RoundTrip"],
        ["MulticastFanOutBenchmarks"] = ["Round"],
        ["HttpBenchmarks"] = ["ParseGet", "ParsePost", "ParseChunkedPost", "BuildGetResponse", "BuildResponseWithFields"],
        ["HttpResponseSendBenchmarks"] = ["SendResponseAsync", "SendResponse"],
        ["WsEchoBenchmarks"] = ["Round"],
        ["FramedEchoBenchmarks"] = ["Round"],
        ["WebSocketBenchmarks"] = ["EncodeServer", "EncodeClient", "EncodeCompressed", "DecodeServerFrame", "DecodeClientFrame", "DecodeCompressed"],
        ["TimerWheelBenchmarks"] = ["WheelReschedule", "TimerChange", "WheelScheduleCancel", "TimerChangeDisarm"],
    };

    [Test]
    public async Task EverySocketFreeMicroBenchmarkPassesItsOwnCheckAndMeasuresOneOperation()
    {
        var root = SourceTree.Root();
        if (root is null)
            Assert.Ignore($"no NetCoreServer.sln above {AppContext.BaseDirectory}, so there are no benchmarks to run");
        var dotnet = SourceTree.DotnetHost() ?? throw new InvalidOperationException("no dotnet host");
        var program = Path.Combine(root!, "performance", "Benchmarks", "bin", "Release", "net10.0", "NetCoreServer.Performance.Benchmarks.dll");
        Assert.That(File.Exists(program), Is.True, $"{program} is built with the solution (dotnet build NetCoreServer.sln -c Release)");

        var artifacts = Path.Combine(Path.GetTempPath(), $"netcoreserver-micro-test-{Guid.NewGuid():N}");
        try
        {
            var arguments = new List<string> { program, "--job", "Dry", "--inProcess", "--artifacts", artifacts, "--filter" };
            arguments.AddRange(s_benchmarks.Keys.Select(name => $"*.{name}.*"));
            var result = await ExternalTool.Run(dotnet, arguments, s_timeout);
            Assert.That(result.ExitCode, Is.EqualTo(0), $"the benchmarks' exit code (1 when a setup check failed); output:{Environment.NewLine}{result}");

            var rows = SummaryRows(result.Output);
            foreach (var (benchmark, methods) in s_benchmarks)
            {
                foreach (var method in methods)
                {
                    var means = rows.Where(row => row.Method == method).Select(row => row.Mean).ToArray();
                    Assert.That(means, Is.Not.Empty, $"{benchmark}.{method} has a row in a summary table; output:{Environment.NewLine}{result.Output}");
                    Assert.That(means, Has.None.EqualTo("NA"), $"{benchmark}.{method} measured every case");
                }
            }
        }
        finally
        {
            if (Directory.Exists(artifacts))
                Directory.Delete(artifacts, recursive: true);
        }
    }

    /// <summary>The (method, mean) of every row of the summary tables BenchmarkDotNet prints.</summary>
    private static List<(string Method, string Mean)> SummaryRows(string output)
    {
        var rows = new List<(string, string)>();
        var meanColumn = -1;
        foreach (var line in output.Split('\n').Select(line => line.Trim()))
        {
            if (!line.StartsWith('|'))
            {
                meanColumn = -1;
                continue;
            }
            var cells = line.Trim('|').Split('|').Select(cell => cell.Trim()).ToArray();
            if (cells[0] == "Method")
                meanColumn = Array.IndexOf(cells, "Mean");
            else if (meanColumn > 0 && !cells[0].StartsWith('-') && cells.Length > meanColumn)
                rows.Add((cells[0], cells[meanColumn]));
        }
        return rows;
    }
}
