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
    private const int FrameSize = 16;

    /// <summary>
    /// 16 threads call Send, SendAsync, Multicast and Disconnect on the same sessions for 10 s: no exception, no deadlock,
    /// and on every connection that stayed open each thread's frames arrive all, whole and in order.
    /// </summary>
    private static async Task<StressResult> ConcurrencyAsync(StressProtocol protocol, double scale)
    {
        var clientCount = Scaled(20, scale, 8);
        var threads = Scaled(16, scale, 4);
        var length = TimeSpan.FromSeconds(10 * Math.Min(scale, 1));
        using var server = protocol.StartServer(echo: false);
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        var clock = Stopwatch.StartNew();
        var clients = new List<Stream>();
        var checks = new List<Task<(long Frames, string? Fault, long[] Last)>>();
        try
        {
            for (var i = 0; i < clientCount; i++)
            {
                var stream = await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
                await stream.WriteAsync(BitConverter.GetBytes(i), stop.Token).ConfigureAwait(false);
                clients.Add(stream);
                checks.Add(CheckFramesAsync(stream, threads + 1, stop.Token));
            }
            while (server.Counters.ByClient.Count < clientCount && !stop.IsCancellationRequested)
                await Task.Delay(20, stop.Token).ConfigureAwait(false);
            var sessions = Enumerable.Range(0, clientCount).Select(i => server.Counters.ByClient[i]).ToArray();

            // sent[thread][session]: frames accepted; the multicaster is thread `threads` and counts once for all.
            var sent = new long[threads + 1][];
            for (var t = 0; t <= threads; t++)
                sent[t] = new long[clientCount];
            var disconnected = new bool[clientCount];
            var exceptions = 0;
            var workers = Enumerable.Range(0, threads).Select(t => Task.Run(() =>
            {
                var random = new Random(t);
                var frame = new byte[FrameSize];
                while (clock.Elapsed < length)
                {
                    try
                    {
                        var target = random.Next(clientCount);
                        var roll = random.Next(1000);
                        if (t == 0 && roll < 2 && target % 4 == 0)
                        {
                            // Only thread 0 disconnects, and only every fourth session: the others must stay whole.
                            Volatile.Write(ref disconnected[target], true);
                            sessions[target].Disconnect();
                        }
                        else if (t == 1 && roll < 100)
                        {
                            lock (sent[threads])
                            {
                                WriteFrame(frame, threads, sent[threads][0]);
                                if (server.Multicast(frame))
                                    sent[threads][0]++;
                            }
                        }
                        else
                        {
                            WriteFrame(frame, t, sent[t][target]);
                            var ok = roll % 2 == 0 ? sessions[target].SendAsync(frame) : sessions[target].Send(frame) == FrameSize;
                            if (ok)
                                sent[t][target]++;
                        }
                    }
                    catch (Exception)
                    {
                        Interlocked.Increment(ref exceptions);
                    }
                }
            }, stop.Token)).ToArray();
            var finished = await Task.WhenAny(Task.WhenAll(workers), Task.Delay(length + TimeSpan.FromSeconds(20))).ConfigureAwait(false);
            var deadlock = !workers.All(w => w.IsCompleted);

            // Let what was accepted arrive, then close: each reader reports what it saw.
            await Task.Delay(1000).ConfigureAwait(false);
            foreach (var session in sessions)
                session.Disconnect();
            var seen = await Task.WhenAll(checks).ConfigureAwait(false);
            var faults = new List<string>();
            long frames = 0;
            var open = 0;
            for (var i = 0; i < clientCount; i++)
            {
                frames += seen[i].Frames;
                if (seen[i].Fault != null)
                    faults.Add($"client {i}: {seen[i].Fault}");
                if (disconnected[i])
                    continue;
                open++;
                for (var t = 0; t < threads; t++)
                {
                    if (seen[i].Last[t] != sent[t][i])
                        faults.Add($"client {i}: thread {t} sent {sent[t][i]}, {seen[i].Last[t]} arrived");
                }
                if (seen[i].Last[threads] != sent[threads][0])
                    faults.Add($"client {i}: {sent[threads][0]} multicasts, {seen[i].Last[threads]} arrived");
            }
            var passed = exceptions == 0 && !deadlock && faults.Count == 0;
            return new StressResult("concurrency", protocol.Name, passed,
                $"{threads} threads x {length.TotalSeconds:0} s on {clientCount} sessions: {frames} frames received, {exceptions} exceptions, " +
                $"{(deadlock ? "DEADLOCK" : "no deadlock")}, {clientCount - open} sessions disconnected on the way, {open} checked frame by frame" +
                (faults.Count > 0 ? "; " + string.Join("; ", faults.Take(3)) : ": nothing lost or reordered"),
                clock.Elapsed);
        }
        finally
        {
            foreach (var stream in clients)
                await stream.DisposeAsync().ConfigureAwait(false);
        }
    }

    private static void WriteFrame(byte[] frame, int source, long sequence)
    {
        BitConverter.TryWriteBytes(frame.AsSpan(0, 4), source);
        BitConverter.TryWriteBytes(frame.AsSpan(4, 8), sequence);
        BitConverter.TryWriteBytes(frame.AsSpan(12, 4), source ^ (int)sequence);
    }

    /// <summary>Reads frames until the end of stream; each source's sequence must go 0, 1, 2... with whole frames.</summary>
    private static async Task<(long Frames, string? Fault, long[] Last)> CheckFramesAsync(Stream stream, int sources, CancellationToken cancel)
    {
        var next = new long[sources];
        var frame = new byte[FrameSize];
        long frames = 0;
        try
        {
            while (true)
            {
                try
                {
                    await stream.ReadExactlyAsync(frame, cancel).ConfigureAwait(false);
                }
                catch (EndOfStreamException)
                {
                    return (frames, null, next);
                }
                var source = BitConverter.ToInt32(frame, 0);
                var sequence = BitConverter.ToInt64(frame, 4);
                if (source < 0 || source >= sources || BitConverter.ToInt32(frame, 12) != (source ^ (int)sequence))
                    return (frames, $"a torn frame after {frames}", next);
                if (sequence != next[source])
                    return (frames, $"source {source}: frame {sequence} where {next[source]} was due", next);
                next[source]++;
                frames++;
            }
        }
        catch (IOException)
        {
            // A reset after a Disconnect that dropped queued data: what arrived before it was checked.
            return (frames, null, next);
        }
    }
}
