using BenchmarkDotNet.Running;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// Micro-benchmarks of the library over loopback, in one process. Run them in Release, choosing with BenchmarkDotNet's
/// own options, e.g. <c>dotnet run -c Release --project performance/Benchmarks -- --filter '*RoundTrip*'</c>
/// (add <c>--job short</c> for a quick look).
/// </summary>
internal static class Program
{
    private static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
}
