using System;
using System.Linq;
using BenchmarkDotNet.Running;
using NetCoreServer.Engine;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// Micro-benchmarks of the library, in one process: over loopback (echo round trip, multicast to 10 clients) and
/// without sockets (send queue, engine round trip and multicast fan-out over in-memory transports, HTTP and WebSocket
/// framing). Run them in Release, choosing with BenchmarkDotNet's own options, e.g.
/// <c>dotnet run -c Release --project performance/Benchmarks -- --filter '*SendQueue*' --job short</c> (README.md in
/// this folder lists them). Each benchmark checks in its setup that one operation does what it should (the echo comes
/// back, every session gets the multicast, a frame decodes back to its message); the exit code is 1 when any failed.
/// </summary>
internal static class Program
{
    // -h and -? as aliases of BenchmarkDotNet's --help, like every other program in performance/.
    private static int Main(string[] args)
    {
        var summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly)
            .Run(Array.ConvertAll(args, argument => argument is "-h" or "-?" ? "--help" : argument));
        var failed = summaries.Where(summary => summary.HasCriticalValidationErrors || summary.Reports.Any(report => !report.Success)).ToArray();
        foreach (var summary in failed)
            Console.Error.WriteLine($"failed: {summary.Title}");
        return failed.Length == 0 ? 0 : 1;
    }
}
