using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Stress;

internal static partial class Scenarios
{
    /// <summary>
    /// Connections up to twice the cap, all from one address: the process lives, the excess is refused at once, and a good
    /// client from another address is served meanwhile (TCP, TLS: the per-address cap). Unix sockets have no address, so
    /// there the global cap applies and the good client is served once the flood leaves.
    /// </summary>
    private static async Task<StressResult> DescriptorFloodAsync(StressProtocol protocol, double scale)
    {
        var cap = Scaled(1000, scale, 100) / 100 * 100;
        var perAddress = protocol.Transport != "uds";
        using var server = protocol.StartServer(echo: true, s =>
        {
            if (perAddress)
                s.OptionMaxSessionsPerAddress = cap;
            else
                s.OptionMaxSessions = cap;
        });
        var before = ProcessProbe.Now();
        var clock = Stopwatch.StartNew();
        var flood = new List<Stream>();
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        var failed = 0;
        try
        {
            // Held open (a cap of live sessions is what is tested), in parallel batches like a real flood.
            for (var batch = 0; batch < 2 * cap / 100; batch++)
            {
                var connects = new Task<Stream>[100];
                for (var i = 0; i < connects.Length; i++)
                    connects[i] = protocol.ConnectAsync(server.Endpoint, stop.Token);
                foreach (var connect in connects)
                {
                    try
                    {
                        flood.Add(await connect.ConfigureAwait(false));
                    }
                    catch (Exception) when (!stop.IsCancellationRequested)
                    {
                        // Refused over the cap: TLS sees it as a failed handshake.
                        failed++;
                    }
                }
            }
            // A connection refused after its TCP connect succeeded is still in the list: give the server time to reset it.
            await Task.Delay(500).ConfigureAwait(false);
            var sessions = server.ConnectedSessions;
            var peak = ProcessProbe.Now();
            var (served, took) = await GoodClientAsync(protocol, server, stop.Token, System.Net.IPAddress.Parse("127.0.0.2")).ConfigureAwait(false);
            // A Unix socket connect to a full backlog fails at the client without reaching the server at all.
            var passed = sessions <= cap && server.Counters.Refused + (perAddress ? 0 : failed) >= cap - 1 && served == perAddress;
            foreach (var stream in flood)
                await stream.DisposeAsync().ConfigureAwait(false);
            flood.Clear();
            await DrainedAsync(server, TimeSpan.FromSeconds(15)).ConfigureAwait(false);
            var (servedAfter, tookAfter) = await GoodClientAsync(protocol, server, stop.Token, null).ConfigureAwait(false);
            passed &= servedAfter;
            var during = perAddress
                ? $"good client from 127.0.0.2 {(served ? $"served during the flood ({took.TotalMilliseconds:0.0} ms for 100 round trips)" : "NOT served")}"
                : $"good client refused while full ({(served ? "served" : "refused")})";
            return new StressResult("descriptor flood", protocol.Name, passed,
                $"{2 * cap} connects, cap {cap}{(perAddress ? " per address" : "")}: {sessions} sessions, {server.Counters.Refused} refused ({failed} seen by the clients); " +
                $"peak {peak} (start {before}); {during}; served after the flood ({tookAfter.TotalMilliseconds:0.0} ms)",
                clock.Elapsed);
        }
        finally
        {
            foreach (var stream in flood)
                await stream.DisposeAsync().ConfigureAwait(false);
        }
    }

    /// <summary>A client that connects, does 100 round trips of 32 bytes and leaves: whether it was served, and how long it took.</summary>
    private static async Task<(bool Served, TimeSpan Took)> GoodClientAsync(StressProtocol protocol, IStressServer server, CancellationToken cancel, System.Net.IPAddress? from = null)
    {
        var clock = Stopwatch.StartNew();
        try
        {
            using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancel);
            limit.CancelAfter(TimeSpan.FromSeconds(5));
            await using var stream = await protocol.ConnectAsync(server.Endpoint, limit.Token, from).ConfigureAwait(false);
            var message = new byte[32];
            for (var i = 0; i < 100; i++)
            {
                await stream.WriteAsync(message, limit.Token).ConfigureAwait(false);
                await stream.ReadExactlyAsync(message, limit.Token).ConfigureAwait(false);
            }
            return (true, clock.Elapsed);
        }
        catch (Exception exception) when (exception is IOException or SocketException or OperationCanceledException or System.Security.Authentication.AuthenticationException)
        {
            return (false, clock.Elapsed);
        }
    }

    /// <summary>Peers that send a ClientHello and never finish: memory bounded by the pending-handshake cap, a good client still gets in.</summary>
    private static async Task<StressResult> HandshakeFloodAsync(StressProtocol protocol, double scale)
    {
        if (!protocol.Secure)
            return StressResult.Skipped("tls handshake flood", protocol, "no handshake");
        var count = Scaled(2_000, scale);
        var hello = await StressProtocol.CaptureClientHelloAsync().ConfigureAwait(false);
        using var server = protocol.StartServer(echo: true);
        var ssl = (SslServer)server;
        var before = Settled();
        var clock = Stopwatch.StartNew();
        var peers = new List<Socket>();
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        try
        {
            for (var i = 0; i < count; i++)
            {
                var socket = await StressProtocol.ConnectRawAsync(server.Endpoint, stop.Token).ConfigureAwait(false);
                peers.Add(socket);
                await socket.SendAsync(hello, SocketFlags.None, stop.Token).ConfigureAwait(false);
            }
            await Task.Delay(1000).ConfigureAwait(false);
            var pending = ssl.PendingHandshakes;
            var peak = ProcessProbe.Now();
            var (served, took) = await GoodClientAsync(protocol, server, stop.Token).ConfigureAwait(false);
            var passed = pending <= ssl.OptionMaxPendingHandshakes && peak.RssMiB - before.RssMiB < 200;
            return new StressResult("tls handshake flood", protocol.Name, passed,
                $"{count} ClientHellos never finished: {pending} handshakes pending (cap {ssl.OptionMaxPendingHandshakes}), the rest in the backlog; " +
                $"peak {peak} (start {before}); good client {(served ? $"served in {took.TotalMilliseconds:0} ms" : $"not served within {took.TotalSeconds:0.0} s")}",
                clock.Elapsed);
        }
        finally
        {
            foreach (var socket in peers)
                socket.Dispose();
        }
    }
}
