using System;
using System.IO;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Performance;

/// <summary>Every program in performance/ answers <c>-h</c>, <c>-?</c> and <c>--help</c> with its usage and exit code 0.</summary>
[TestFixture]
public sealed class PerformanceProgramHelpTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    private static readonly string[] s_programs =
        ["EchoServer", "EchoClient", "MulticastServer", "MulticastClient", "RawEchoServer", "IdleConnections", "KestrelServer", "Benchmarks", "Suite", "AttackMemory"];

    [TestCaseSource(nameof(s_programs))]
    public async Task TheProgramPrintsItsUsageForEachSpellingOfHelp(string program)
    {
        var root = SourceTree.Root();
        if (root is null)
            Assert.Ignore($"no NetCoreServer.sln above {AppContext.BaseDirectory}");
        var dotnet = SourceTree.DotnetHost() ?? throw new InvalidOperationException("no dotnet host");
        var assembly = Path.Combine(root!, "performance", program, "bin", "Release", "net10.0", $"NetCoreServer.Performance.{program}.dll");
        Assert.That(File.Exists(assembly), Is.True, $"{assembly} is built with the solution (dotnet build NetCoreServer.sln -c Release)");

        foreach (var spelling in new[] { "-h", "-?", "--help" })
        {
            var result = await ExternalTool.Run(dotnet, [assembly, spelling], s_timeout);
            Assert.That(result.ExitCode, Is.EqualTo(0), $"{program} {spelling}: {result}");
            // CommandLineParser's help lists --help itself; KestrelServer prints its one usage line; BenchmarkDotNet its USAGE.
            Assert.That(result.Output + result.Error, Does.Contain("--help").Or.Contain("usage:").Or.Contain("USAGE"), $"{program} {spelling} printed its usage: {result}");
        }
    }
}
