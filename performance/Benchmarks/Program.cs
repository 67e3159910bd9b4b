using System;
using BenchmarkDotNet.Running;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// Micro-benchmarks of the library over loopback, in one process. Run them in Release, choosing with BenchmarkDotNet's
/// own options, e.g. <c>dotnet run -c Release --project performance/Benchmarks -- --filter '*RoundTrip*'</c>
/// (add <c>--job short</c> for a quick look).
/// </summary>
internal static class Program
{
    // -h and -? as aliases of BenchmarkDotNet's --help, like every other program in performance/.
    private static void Main(string[] args)
        => BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(Array.ConvertAll(args, argument => argument is "-h" or "-?" ? "--help" : argument));
}
