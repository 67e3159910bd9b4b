using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Stress;

internal static partial class Scenarios
{
    /// <summary>
    /// Multicast to 100 readers, then again with one more client that never reads: what the process grows meanwhile stays
    /// near the slow session's send limit (under 64 MiB) and the readers keep at least 90% of their rate.
    /// </summary>
    private static async Task<StressResult> SlowReaderAsync(StressProtocol protocol, double scale)
    {
        const int readerCount = 100;
        var phase = TimeSpan.FromSeconds(3 * Math.Max(scale, 0.5));
        using var server = protocol.StartServer(echo: false);
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        var readers = new List<Stream>();
        long received = 0;
        var clock = Stopwatch.StartNew();
        try
        {
            for (var i = 0; i < readerCount; i++)
                readers.Add(await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false));
            var reading = readers.Select(async stream =>
            {
                var buffer = new byte[64 * 1024];
                try
                {
                    int n;
                    while ((n = await stream.ReadAsync(buffer, stop.Token).ConfigureAwait(false)) > 0)
                        Interlocked.Add(ref received, n);
                }
                catch (Exception)
                {
                    // Closed at the end of the scenario.
                }
            }).ToArray();
            while (server.ConnectedSessions < readerCount)
                await Task.Delay(20, stop.Token).ConfigureAwait(false);

            var before = ProcessProbe.Now();
            var baseline = await MulticastForAsync(server, phase, () => Interlocked.Read(ref received)).ConfigureAwait(false);
            // Warm: the first phase grew the heap, the pools and the 100 in-process clients' buffers; what grows from here
            // on is what the slow reader costs.
            var warm = ProcessProbe.Now();
            await using var slow = await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
            while (server.ConnectedSessions < readerCount + 1)
                await Task.Delay(20, stop.Token).ConfigureAwait(false);
            var withSlow = await MulticastForAsync(server, phase, () => Interlocked.Read(ref received)).ConfigureAwait(false);
            var after = ProcessProbe.Now();
            // Alone once more, so that drift in the machine's load does not pass for the slow reader's cost.
            await slow.DisposeAsync().ConfigureAwait(false);
            while (server.ConnectedSessions > readerCount)
                await Task.Delay(20, stop.Token).ConfigureAwait(false);
            baseline = (baseline + await MulticastForAsync(server, phase, () => Interlocked.Read(ref received)).ConfigureAwait(false)) / 2;
            stop.Cancel();
            foreach (var stream in readers)
                await stream.DisposeAsync().ConfigureAwait(false);
            await Task.WhenAll(reading).ConfigureAwait(false);

            var ratio = withSlow / baseline;
            // One send limit (16 MiB) for the slow session, plus what the readers have in flight.
            var passed = after.RssMiB - warm.RssMiB < 64;
            return new StressResult("slow reader", protocol.Name, passed,
                $"{readerCount} readers: {baseline / 1048576:0.0} MiB/s alone (mean of before and after), {withSlow / 1048576:0.0} MiB/s beside a client that never reads ({ratio:P0}); " +
                $"slow session skipped {server.Counters.Refusals} episode(s), rss {before.RssMiB} -> {warm.RssMiB} MiB after the first phase alone -> {after.RssMiB} MiB beside the slow reader",
                clock.Elapsed, RatesHeld: ratio >= 0.9);
        }
        finally
        {
            foreach (var stream in readers)
                await stream.DisposeAsync().ConfigureAwait(false);
        }
    }

    /// <summary>Multicasts 1 KiB messages for <paramref name="length"/>, yielding now and then; returns what the readers got per second.</summary>
    private static async Task<double> MulticastForAsync(IStressServer server, TimeSpan length, Func<long> received)
    {
        var message = new byte[1024];
        var start = received();
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < length)
        {
            for (var i = 0; i < 64; i++)
                server.Multicast(message);
            await Task.Delay(1).ConfigureAwait(false);
        }
        return (received() - start) / clock.Elapsed.TotalSeconds;
    }

    /// <summary>A client that writes fast and never reads, against the echo: the server stops reading, nothing is lost, memory bounded.</summary>
    private static async Task<StressResult> FastWriterAsync(StressProtocol protocol, double scale)
    {
        var total = (long)Scaled(256, scale, 16) * 1024 * 1024;
        using var server = protocol.StartServer(echo: true);
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        var before = Settled();
        var clock = Stopwatch.StartNew();
        await using var stream = await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
        long written = 0;
        var writer = Task.Run(async () =>
        {
            var chunk = new byte[64 * 1024];
            for (; written < total; written += chunk.Length)
            {
                for (var i = 0; i < chunk.Length; i++)
                    chunk[i] = (byte)((written + i) % 251);
                await stream.WriteAsync(chunk, stop.Token).ConfigureAwait(false);
            }
        });
        // The writer runs until the server stops reading and every buffer between them is full.
        await Task.WhenAny(writer, Task.Delay(TimeSpan.FromSeconds(3))).ConfigureAwait(false);
        var stalled = Interlocked.Read(ref written);
        var peak = ProcessProbe.Now();

        long read = 0;
        var corrupt = false;
        var buffer = new byte[256 * 1024];
        while (read < total && !stop.IsCancellationRequested)
        {
            var n = await stream.ReadAsync(buffer, stop.Token).ConfigureAwait(false);
            if (n == 0)
                break;
            for (var i = 0; i < n && !corrupt; i++)
                corrupt = buffer[i] != (byte)((read + i) % 251);
            read += n;
        }
        await writer.ConfigureAwait(false);
        var passed = read == total && !corrupt && peak.RssMiB - before.RssMiB < 128;
        return new StressResult("fast writer", protocol.Name, passed,
            $"{total >> 20} MiB written; {stalled >> 20} MiB accepted before the writer stalled (server stopped reading); " +
            $"{read >> 20} MiB echoed back{(corrupt ? ", CORRUPT" : ", intact")}; rss {before.RssMiB} -> {peak.RssMiB} MiB while stalled",
            clock.Elapsed);
    }
}
