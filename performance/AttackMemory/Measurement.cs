using System;
using System.Diagnostics;
using System.IO;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.AttackMemory;

/// <summary>Runs one attack against a fresh child server and reads its RSS at the moments that matter.</summary>
internal static class Measurement
{
    private const long MiB = 1024 * 1024;

    /// <summary>The bound: back under the RSS before the attack plus this, after the clients left.</summary>
    private const long Bound = 64 * MiB;

    public static async Task<string> RunAsync(string scenario, string engine, int clients)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath!, $"\"{typeof(Program).Assembly.Location}\" --serve {scenario} {engine}")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath) != "dotnet")
            start.Arguments = $"--serve {scenario} {engine}";
        using var child = Process.Start(start)!;
        try
        {
            var port = int.Parse((await child.StandardOutput.ReadLineAsync())!);
            var gc = await child.StandardOutput.ReadLineAsync();
            await Task.Delay(TimeSpan.FromSeconds(2));
            var before = Rss(child.Id);

            var attacks = new Attacks();
            await attacks.StartAsync(scenario, port, clients);
            // The peak: sampled until the RSS has not grown for 3 s (or 60 s have passed).
            var peak = before;
            var clock = Stopwatch.StartNew();
            var grown = clock.Elapsed;
            while (clock.Elapsed - grown < TimeSpan.FromSeconds(3) && clock.Elapsed < TimeSpan.FromSeconds(60))
            {
                await Task.Delay(200);
                var now = Rss(child.Id);
                if (now > peak + MiB)
                {
                    peak = now;
                    grown = clock.Elapsed;
                }
            }
            attacks.Leave();

            var left = Stopwatch.StartNew();
            TimeSpan? back = null;
            long at5 = 0, at30;
            while (true)
            {
                await Task.Delay(100);
                var now = Rss(child.Id);
                if (back == null && now < before + Bound)
                    back = left.Elapsed;
                if (at5 == 0 && left.Elapsed >= TimeSpan.FromSeconds(5))
                    at5 = now;
                if (left.Elapsed >= TimeSpan.FromSeconds(30))
                {
                    at30 = now;
                    break;
                }
            }
            var backText = back is { } b ? $"{b.TotalSeconds:F1} s" : "never (30 s)";
            return $"{scenario,-6} {engine,-7} {clients,5} clients, {gc} GC: RSS {before / MiB} MB before, {peak / MiB} MB peak, "
                + $"{at5 / MiB} MB 5 s after, {at30 / MiB} MB 30 s after; under before + {Bound / MiB} MB after {backText}";
        }
        finally
        {
            child.StandardInput.Close();
            if (!child.WaitForExit(10_000))
                child.Kill();
        }
    }

    /// <summary>The process's resident set (VmRSS in /proc/pid/status), in bytes.</summary>
    private static long Rss(int pid)
    {
        foreach (var line in File.ReadLines($"/proc/{pid}/status"))
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                return long.Parse(line.AsSpan(6).Trim().TrimEnd("kB").Trim()) * 1024;
        }
        throw new InvalidOperationException("no VmRSS for process " + pid);
    }
}
