using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Stress;

internal static partial class Scenarios
{
    /// <summary>
    /// 500 connections that send one byte and then hold the connection, beside 10 normal clients: the normal ones keep
    /// their rate and are never dropped, the slow ones are dropped at the idle timeout (TLS: the handshake timeout).
    /// </summary>
    private static async Task<StressResult> SlowlorisAsync(StressProtocol protocol, double scale)
    {
        var slowCount = Scaled(500, scale);
        var idle = TimeSpan.FromSeconds(2);
        using var server = protocol.StartServer(echo: true, s =>
        {
            s.OptionIdleTimeout = idle;
            // A TLS peer that sends one byte never finishes its handshake: the handshake timeout is its idle timeout.
            if (s is SslServer ssl)
                ssl.Context.HandshakeTimeout = idle;
        });
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        var clock = Stopwatch.StartNew();
        var normal = new List<Stream>();
        var slow = new List<Socket>();
        try
        {
            for (var i = 0; i < 10; i++)
                normal.Add(await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false));
            var alone = await RoundTripsForAsync(normal, TimeSpan.FromSeconds(1.5), stop.Token).ConfigureAwait(false);
            for (var i = 0; i < slowCount; i++)
            {
                var socket = await StressProtocol.ConnectRawAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
                slow.Add(socket);
                await socket.SendAsync(new byte[] { 22 }, SocketFlags.None, stop.Token).ConfigureAwait(false);
            }
            // Measured across the idle timeout: the normal clients stay active, so only the slow ones are dropped.
            var beside = await RoundTripsForAsync(normal, idle * 2, stop.Token).ConfigureAwait(false);
            long Dropped() => server.Counters.ClosedWith(DisconnectReason.Timeout) + server.Counters.ClosedWith(DisconnectReason.HandshakeFailed);
            var droppedInWindow = Dropped();
            // A loaded machine may sweep late: wait (bounded) for the rest, then check that the normal ones still work.
            var late = Stopwatch.StartNew();
            while (Dropped() < slowCount && late.Elapsed < TimeSpan.FromSeconds(10))
                await Task.Delay(50, stop.Token).ConfigureAwait(false);
            var dropped = Dropped();
            var otherClosures = Enumerable.Range(0, 16).Sum(reason => server.Counters.ClosedWith((DisconnectReason)reason)) - dropped;
            await RoundTripsForAsync(normal, TimeSpan.FromMilliseconds(200), stop.Token).ConfigureAwait(false);
            var ratio = beside / alone;
            var passed = dropped == slowCount && otherClosures == 0 && server.ConnectedSessions == normal.Count;
            return new StressResult("slowloris", protocol.Name, passed,
                $"10 clients: {alone:0} round trips/s alone, {beside:0}/s beside {slowCount} silent connections ({ratio:P0}); " +
                $"{droppedInWindow} slow ones dropped within {idle.TotalSeconds * 2:0} s, {dropped} in all (idle timeout {idle.TotalSeconds:0} s{(protocol.Secure ? "; TLS: at the handshake timeout or the idle one" : "")}), " +
                $"{otherClosures} other sessions closed, {server.ConnectedSessions} sessions left",
                clock.Elapsed, RatesHeld: ratio >= 0.9 && droppedInWindow == slowCount);
        }
        finally
        {
            foreach (var stream in normal)
                await stream.DisposeAsync().ConfigureAwait(false);
            foreach (var socket in slow)
                socket.Dispose();
        }
    }

    /// <summary>Each client does 32-byte round trips for <paramref name="length"/>; returns round trips per second over all.</summary>
    private static async Task<double> RoundTripsForAsync(List<Stream> clients, TimeSpan length, CancellationToken cancel)
    {
        long trips = 0;
        var clock = Stopwatch.StartNew();
        await Task.WhenAll(clients.Select(async stream =>
        {
            var message = new byte[32];
            while (clock.Elapsed < length)
            {
                await stream.WriteAsync(message, cancel).ConfigureAwait(false);
                await stream.ReadExactlyAsync(message, cancel).ConfigureAwait(false);
                Interlocked.Increment(ref trips);
            }
        })).ConfigureAwait(false);
        return trips / clock.Elapsed.TotalSeconds;
    }

    /// <summary>Many clients each echo a large amount, then all leave: RSS returns near its starting level within seconds.</summary>
    private static async Task<StressResult> BurstAsync(StressProtocol protocol, double scale)
    {
        var clients = Scaled(50, scale, 2);
        const long perClient = 20L * 1024 * 1024;
        using var server = protocol.StartServer(echo: true);
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(3));
        var before = Settled();
        var clock = Stopwatch.StartNew();
        long peak = before.RssMiB;
        var sampling = true;
        var sampler = Task.Run(async () =>
        {
            while (Volatile.Read(ref sampling))
            {
                peak = Math.Max(peak, ProcessProbe.Now().RssMiB);
                await Task.Delay(100).ConfigureAwait(false);
            }
        });
        var whole = 0;
        await Task.WhenAll(Enumerable.Range(0, clients).Select(async _ =>
        {
            await using var stream = await protocol.ConnectAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
            var chunk = new byte[256 * 1024];
            var writing = Task.Run(async () =>
            {
                for (long sent = 0; sent < perClient; sent += chunk.Length)
                    await stream.WriteAsync(chunk, stop.Token).ConfigureAwait(false);
            });
            var buffer = new byte[256 * 1024];
            long got = 0;
            while (got < perClient)
            {
                var n = await stream.ReadAsync(buffer, stop.Token).ConfigureAwait(false);
                if (n == 0)
                    break;
                got += n;
            }
            await writing.ConfigureAwait(false);
            if (got == perClient)
                Interlocked.Increment(ref whole);
        })).ConfigureAwait(false);
        var burst = clock.Elapsed;
        Volatile.Write(ref sampling, false);
        await sampler.ConfigureAwait(false);
        await DrainedAsync(server, TimeSpan.FromSeconds(10)).ConfigureAwait(false);
        // No collection forced here: what the library gives back by itself is what is measured.
        await Task.Delay(TimeSpan.FromSeconds(4)).ConfigureAwait(false);
        var after = ProcessProbe.Now();
        var passed = whole == clients && server.ConnectedSessions == 0 && after.RssMiB <= before.RssMiB * 1.5;
        return new StressResult("burst", protocol.Name, passed,
            $"{clients} clients x {perClient >> 20} MiB echoed in {burst.TotalSeconds:0.0} s ({whole} got every byte back), {server.ConnectedSessions} sessions left; rss {before.RssMiB} MiB before, {peak} MiB peak, " +
            $"{after.RssMiB} MiB 4 s after ({(double)after.RssMiB / before.RssMiB:0.00}x); heap {after.HeapMiB} MiB",
            clock.Elapsed);
    }
}
