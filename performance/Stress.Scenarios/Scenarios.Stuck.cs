using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Stress;

internal static partial class Scenarios
{
    private const int StuckReaders = 10;
    private const int StuckMessageSize = 256;
    private const int StuckMessagesPerSecond = 64_000;

    /// <summary>
    /// A client with a 4 KiB receive buffer that never reads, beside 10 readers, while the server multicasts 256-byte
    /// messages (16 MB/s) for 60 s (times the scale), with each slow-consumer policy, raw and over WebSocket where the
    /// transport has it. The process's RSS, sampled every twelfth of the run, stays flat once the stuck session's send
    /// queue is full: under 32 MiB of growth from the sixth of the run on, and under one send limit (16 MiB) plus 64 MiB
    /// overall. With Disconnect the stuck session is closed as a slow consumer and no reader is.
    /// </summary>
    private static async Task<StressResult> StuckReaderAsync(StressProtocol protocol, double scale)
    {
        var length = TimeSpan.FromSeconds(Math.Max(60 * scale, 5));
        var clock = Stopwatch.StartNew();
        var figures = new List<string>();
        var passed = true;
        var ratesHeld = true;
        foreach (var webSocket in protocol.HasWebSocket ? new[] { false, true } : new[] { false })
        {
            foreach (var policy in new[] { SlowConsumerPolicy.Skip, SlowConsumerPolicy.Disconnect })
            {
                var run = await StuckReaderRunAsync(protocol, webSocket, policy, length).ConfigureAwait(false);
                passed &= run.Passed;
                ratesHeld &= run.RatesHeld;
                figures.Add($"{(webSocket ? "ws" : "raw")}/{policy}: {run.Figures}");
            }
        }
        return new StressResult("stuck reader", protocol.Name, passed, string.Join("; ", figures), clock.Elapsed, ratesHeld);
    }

    private readonly record struct StuckRun(bool Passed, bool RatesHeld, string Figures);

    private static async Task<StuckRun> StuckReaderRunAsync(StressProtocol protocol, bool webSocket, SlowConsumerPolicy policy, TimeSpan length)
    {
        using var server = protocol.StartServer(echo: false, s => s.OptionSlowConsumerPolicy = policy, webSocket);
        using var stop = new CancellationTokenSource(length + TimeSpan.FromMinutes(1));
        var before = Settled();
        var received = new long[StuckReaders];
        var readers = new List<Stream>();
        var reading = new List<Task>();
        Stream? stuck = null;
        try
        {
            for (var i = 0; i < StuckReaders; i++)
            {
                var stream = await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
                readers.Add(stream);
                var index = i;
                if (webSocket)
                    await UpgradeAsync(stream, stop.Token).ConfigureAwait(false);
                reading.Add(Task.Run(async () =>
                {
                    var buffer = new byte[64 * 1024];
                    try
                    {
                        int n;
                        while ((n = await stream.ReadAsync(buffer, stop.Token).ConfigureAwait(false)) > 0)
                            Interlocked.Add(ref received[index], n);
                    }
                    catch (Exception)
                    {
                        // Closed at the end of the run.
                    }
                }));
            }
            stuck = await protocol.ConnectAsync(server.Endpoint, stop.Token, receiveBuffer: 4096).ConfigureAwait(false);
            if (webSocket)
                await UpgradeAsync(stuck, stop.Token).ConfigureAwait(false);
            // Every session is connected (upgraded over WebSocket) before the first message, so each reader is owed all.
            while ((webSocket ? server.Counters.Opened : server.ConnectedSessions) < StuckReaders + 1)
                await Task.Delay(20, stop.Token).ConfigureAwait(false);

            var message = new byte[StuckMessageSize];
            long sent = 0;
            var samples = new List<long>();
            var period = length / 12;
            var next = period;
            var clock = Stopwatch.StartNew();
            while (clock.Elapsed < length)
            {
                // Paced by the clock, not by the timer's resolution: catch up with the rate, at most 1,024 at a time.
                var due = (long)(clock.Elapsed.TotalSeconds * StuckMessagesPerSecond) - sent;
                for (var i = 0; i < Math.Min(due, 1024); i++)
                {
                    server.Multicast(message);
                    sent++;
                }
                await Task.Delay(1).ConfigureAwait(false);
                if (clock.Elapsed >= next)
                {
                    samples.Add(ProcessProbe.Now().RssMiB);
                    next += period;
                }
            }
            var wire = StuckMessageSize + (webSocket ? 4 : 0);
            // What reaches a reader after the last multicast is still on its way: give it a moment.
            var drain = Stopwatch.StartNew();
            while (received.Min(r => Interlocked.Read(ref r)) < sent * wire && drain.Elapsed < TimeSpan.FromSeconds(2))
                await Task.Delay(20).ConfigureAwait(false);
            var ratio = received.Min(r => Interlocked.Read(ref r)) / (double)(sent * wire);

            // Flat from the sixth of the run on (10 s at full length): the stuck queue filled in its first second.
            var warm = samples[Math.Min(1, samples.Count - 1)];
            var growth = samples.Skip(1).Max() - warm;
            var peak = samples.Max() - before.RssMiB;
            var stuckClosed = server.Counters.ClosedWith(DisconnectReason.SlowConsumer);
            var ok = growth < 32 && peak < 16 + 64 && ratio > 0
                && (policy == SlowConsumerPolicy.Disconnect ? stuckClosed == 1 && server.Counters.Closed == 1 : server.Counters.Closed == 0);
            var at10 = samples[Math.Min(1, samples.Count - 1)];
            return new StuckRun(ok, ratio >= 0.9,
                $"rss {before.RssMiB} MiB before, {at10} at {period.TotalSeconds * 2:0.#} s, {samples[^1]} at {length.TotalSeconds:0} s " +
                $"(+{growth} MiB after the first sixth), {sent * StuckMessageSize >> 20} MiB multicast, slowest reader {ratio:P0}, " +
                $"{server.Counters.Refusals} skip episode(s), {stuckClosed} closed as slow consumer, {server.Counters.Closed} closed in all");
        }
        finally
        {
            stop.Cancel();
            foreach (var stream in readers)
                await stream.DisposeAsync().ConfigureAwait(false);
            if (stuck != null)
                await stuck.DisposeAsync().ConfigureAwait(false);
            await Task.WhenAll(reading).ConfigureAwait(false);
        }
    }

    /// <summary>The client's side of a WebSocket upgrade on <paramref name="stream"/>, reading nothing past the 101 head.</summary>
    private static async Task UpgradeAsync(Stream stream, CancellationToken cancel)
    {
        var request = "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(request), cancel).ConfigureAwait(false);
        var head = new byte[4096];
        var count = 0;
        while (count < head.Length)
        {
            // One byte at a time: the head's end is found exactly.
            var n = await stream.ReadAsync(head.AsMemory(count, 1), cancel).ConfigureAwait(false);
            if (n == 0)
                throw new IOException("the server closed during the WebSocket upgrade");
            count++;
            if (count >= 4 && head.AsSpan(count - 4, 4).SequenceEqual("\r\n\r\n"u8))
            {
                if (!head.AsSpan(0, count).StartsWith("HTTP/1.1 101"u8))
                    throw new IOException("upgrade refused: " + Encoding.ASCII.GetString(head, 0, count));
                return;
            }
        }
        throw new IOException("no end of the upgrade response in 4 KiB");
    }
}
