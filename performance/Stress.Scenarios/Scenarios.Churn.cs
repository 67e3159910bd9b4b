using System;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Stress;

internal static partial class Scenarios
{
    /// <summary>Connect, send, read the echo, disconnect, many times: sessions, heap, RSS and descriptors return to their start.</summary>
    private static async Task<StressResult> ChurnAsync(StressProtocol protocol, double scale)
    {
        var cycles = Scaled(protocol.Secure ? 4_000 : 20_000, scale);
        using var server = protocol.StartServer(echo: true);
        var before = Settled();
        var clock = Stopwatch.StartNew();
        var done = 0;
        var failed = 0;
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        var workers = Enumerable.Range(0, 8).Select(async _ =>
        {
            var message = new byte[32];
            var echo = new byte[32];
            while (Interlocked.Increment(ref done) <= cycles && !stop.IsCancellationRequested)
            {
                try
                {
                    await using var stream = await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
                    await stream.WriteAsync(message, stop.Token).ConfigureAwait(false);
                    await stream.ReadExactlyAsync(echo, stop.Token).ConfigureAwait(false);
                }
                catch (Exception) when (!stop.IsCancellationRequested)
                {
                    Interlocked.Increment(ref failed);
                }
            }
        }).ToArray();
        await Task.WhenAll(workers).ConfigureAwait(false);
        var elapsed = clock.Elapsed;
        var drained = await DrainedAsync(server, TimeSpan.FromSeconds(15)).ConfigureAwait(false);
        var after = Settled();
        var completed = Math.Min(done, cycles);
        var passed = drained && failed == 0 && !stop.IsCancellationRequested
            && after.Descriptors <= before.Descriptors + 4 && after.HeapMiB <= before.HeapMiB + 16;
        return new StressResult("churn", protocol.Name, passed,
            $"{completed} cycles in {elapsed.TotalSeconds:0.0} s ({completed / elapsed.TotalSeconds:0}/s), {failed} failed; sessions {server.ConnectedSessions}; before {before}; after {after}",
            elapsed);
    }
}
