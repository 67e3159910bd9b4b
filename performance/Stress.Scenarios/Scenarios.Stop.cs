using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Stress;

internal static partial class Scenarios
{
    /// <summary>
    /// 100 clients send at full speed while the server echoes and a thread multicasts; nine in ten read everything and
    /// close at the end of stream, one in ten never reads (its session's send queue stays full, so only the 2 s disconnect
    /// timeout ends it). Then Stop: no exception escapes (from Stop, from a hook's OnError, or unobserved in a task),
    /// every session that ran OnConnected runs OnDisconnected once, no session is left, every client sees its connection
    /// end, the endpoint binds again at once, and the process goes quiet (its CPU after Stop falls well under the load's).
    /// </summary>
    private static Task<StressResult> StopUnderLoadAsync(StressProtocol protocol, double scale) => UnderLoadAsync(protocol, scale, restart: false);

    /// <summary>As <see cref="StopUnderLoadAsync"/> with Restart: afterwards the server serves a new client on the same endpoint.</summary>
    private static Task<StressResult> RestartUnderLoadAsync(StressProtocol protocol, double scale) => UnderLoadAsync(protocol, scale, restart: true);

    private static async Task<StressResult> UnderLoadAsync(StressProtocol protocol, double scale, bool restart)
    {
        var name = restart ? "restart" : "stop";
        var clientCount = Scaled(100, scale, 50);
        var load = TimeSpan.FromSeconds(2 * Math.Max(scale, 0.5));
        long unobserved = 0;
        EventHandler<UnobservedTaskExceptionEventArgs> onUnobserved = (_, _) => Interlocked.Increment(ref unobserved);
        TaskScheduler.UnobservedTaskException += onUnobserved;
        var disconnectTimeout = TimeSpan.FromSeconds(2);
        using var server = protocol.StartServer(echo: true, s => s.Counters.DisconnectTimeout = disconnectTimeout);
        using var stop = new CancellationTokenSource(TimeSpan.FromMinutes(2));
        var clock = Stopwatch.StartNew();
        var clients = new List<Stream>();
        var loops = new List<Task>();
        long received = 0;
        var multicasting = true;
        long multicastExceptions = 0;
        var multicaster = new Thread(() =>
        {
            var message = new byte[256];
            while (Volatile.Read(ref multicasting))
            {
                try
                {
                    server.Multicast(message);
                }
                catch (Exception)
                {
                    Interlocked.Increment(ref multicastExceptions);
                }
                Thread.Yield();
            }
        }) { IsBackground = true, Name = "stress multicaster" };
        var phase = "connecting the clients";
        try
        {
            // Everyone connected first, then the load: connects that wait behind a full load starve on a loaded machine.
            for (var batch = 0; batch < clientCount; batch += 25)
            {
                var connects = Enumerable.Range(batch, Math.Min(25, clientCount - batch)).Select(_ => protocol.ConnectAsync(server.Endpoint, stop.Token)).ToArray();
                clients.AddRange(await Task.WhenAll(connects).ConfigureAwait(false));
            }
            var connectTook = clock.Elapsed;
            var everyone = Stopwatch.StartNew();
            while (server.Counters.Opened < clientCount && everyone.Elapsed < TimeSpan.FromSeconds(10))
                await Task.Delay(20, stop.Token).ConfigureAwait(false);
            var readers = 0;
            for (var i = 0; i < clientCount; i++)
            {
                // Each client's last loop ends when it sees its connection end: the reader, or the writer of one that never reads.
                var writing = WriteUntilClosedAsync(clients[i]);
                if (i % 10 == 9)
                {
                    loops.Add(writing);
                    continue;
                }
                readers++;
                var stream = clients[i];
                loops.Add(Task.WhenAll(writing, ReadUntilClosedAsync(stream, n => Interlocked.Add(ref received, n))));
            }
            multicaster.Start();
            phase = "loading";

            // The load's length and the Stop are timed on a thread of their own, as a user's Stop comes from theirs: under
            // this load a thread-pool continuation can wait seconds for its turn.
            var cpu = CpuTime();
            var bytes = Interlocked.Read(ref received);
            var window = Stopwatch.StartNew();
            double loadCpu = 0, loadRate = 0;
            long opened = 0, sessionsAfter = -1;
            Exception? thrown = null;
            var returned = false;
            var stopTook = TimeSpan.Zero;
            var stopped = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var stopper = new Thread(() =>
            {
                Thread.Sleep(load);
                loadCpu = (CpuTime() - cpu).TotalSeconds / window.Elapsed.TotalSeconds;
                loadRate = (Interlocked.Read(ref received) - bytes) / window.Elapsed.TotalSeconds;
                opened = server.Counters.Opened;
                phase = restart ? "in Restart" : "in Stop";
                var stopping = Stopwatch.StartNew();
                try
                {
                    returned = restart ? server.Restart() : server.Stop();
                }
                catch (Exception exception)
                {
                    thrown = exception;
                }
                stopTook = stopping.Elapsed;
                sessionsAfter = server.ConnectedSessions;
                stopped.SetResult();
            }) { IsBackground = true, Name = "stress stopper" };
            stopper.Start();
            await stopped.Task.WaitAsync(TimeSpan.FromSeconds(60), stop.Token).ConfigureAwait(false);
            Volatile.Write(ref multicasting, false);
            multicaster.Join();

            phase = "waiting for the clients to see the end";
            // Every client sees its connection end (end of stream or reset), so none of its loops is left running.
            var ending = Stopwatch.StartNew();
            var ended = await Task.WhenAny(Task.WhenAll(loops), Task.Delay(TimeSpan.FromSeconds(15))).ConfigureAwait(false);
            var endTook = ending.Elapsed;
            var clientsEnded = loops.Count(l => l.IsCompleted);
            var closedOnce = server.Counters.Closed;
            var lifecycle = server.Counters.Opened == closedOnce && server.Counters.HookFaults == 0;

            // The endpoint again, at once: Restart has bound it already; after Stop a fresh socket binds it, then Start.
            phase = "binding again";
            string rebind;
            bool rebound;
            if (restart)
            {
                var (served, _) = await GoodClientAsync(protocol, server, stop.Token).ConfigureAwait(false);
                rebound = server.IsStarted && served;
                rebind = rebound ? "a new client served after Restart" : "NO client served after Restart";
            }
            else
            {
                var bound = TryBind(server.Endpoint, out var bindError);
                var started = server.Start();
                var (served, _) = started ? await GoodClientAsync(protocol, server, stop.Token).ConfigureAwait(false) : (false, TimeSpan.Zero);
                server.Stop();
                rebound = bound && started && served;
                rebind = $"a fresh socket {(bound ? "bound" : "did NOT bind (" + bindError + ")")} the endpoint, Start {(started ? "succeeded" : "FAILED")}, a new client {(served ? "served" : "NOT served")}";
            }

            phase = "measuring the CPU after";
            // Quiet afterwards: only loops that spin keep a core busy once the clients are gone. Cleanup (finalizers, the
            // collection after a burst, tiered compilation) can take part of a second, so up to five windows of 1 s are
            // measured and the quietest counts; a spinning thread would keep every one of them near a whole core.
            var idleWindows = new List<double>();
            for (var i = 0; i < 5 && (idleWindows.Count == 0 || idleWindows.Min() >= loadCpu / 4); i++)
            {
                cpu = CpuTime();
                window.Restart();
                await Task.Delay(1000).ConfigureAwait(false);
                idleWindows.Add((CpuTime() - cpu).TotalSeconds / window.Elapsed.TotalSeconds);
            }
            var idleCpu = idleWindows.Min();

            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            var errors = server.Counters.Errors.Where(e => !IsQuietClose(e)).GroupBy(e => e).Select(g => $"{g.Key} x{g.Count()}").ToList();
            var passed = thrown == null && returned && sessionsAfter == 0 && ended != null && clientsEnded == clientCount && lifecycle
                && rebound && idleCpu < loadCpu / 2 && Interlocked.Read(ref unobserved) == 0 && Interlocked.Read(ref multicastExceptions) == 0 && errors.Count == 0;
            return new StressResult(name, protocol.Name, passed,
                $"{clientCount} clients ({clientCount - readers} never reading) connected in {connectTook.TotalSeconds:0.0} s, at {loadRate / 1048576:0.0} MiB/s read (echo and multicast), cpu {loadCpu:0.00} s/s; " +
                $"{(restart ? "Restart" : "Stop")} {(thrown != null ? "THREW " + thrown.GetType().Name + ": " + thrown.Message : returned ? "returned true" : "returned FALSE")} in {stopTook.TotalMilliseconds:0} ms (disconnect timeout {disconnectTimeout.TotalSeconds:0} s), " +
                $"{sessionsAfter} sessions left, {clientsEnded}/{clientCount} clients saw the end within {endTook.TotalSeconds:0.0} s; " +
                $"{server.Counters.Opened} OnConnected ({opened} before the stop), {closedOnce} OnDisconnected, {server.Counters.HookFaults} hook-order faults; " +
                $"{rebind}; cpu after {string.Join(", ", idleWindows.Select(c => c.ToString("0.00")))} s/s; {Interlocked.Read(ref unobserved)} unobserved task exceptions, {multicastExceptions} from Multicast, " +
                $"{(errors.Count == 0 ? "no OnError but quiet closes" : "OnError " + string.Join(", ", errors))}",
                clock.Elapsed);
        }
        catch (Exception exception) when (exception is TimeoutException || stop.IsCancellationRequested)
        {
            return new StressResult(name, protocol.Name, false, $"still {phase} after {clock.Elapsed.TotalSeconds:0} s; {server.ConnectedSessions} sessions, {server.Counters.Opened} OnConnected, {server.Counters.Closed} OnDisconnected", clock.Elapsed);
        }
        finally
        {
            Volatile.Write(ref multicasting, false);
            if (multicaster.IsAlive)
                multicaster.Join();
            foreach (var stream in clients)
                await stream.DisposeAsync().ConfigureAwait(false);
            TaskScheduler.UnobservedTaskException -= onUnobserved;
        }
    }

    private static TimeSpan CpuTime()
    {
        using var process = Process.GetCurrentProcess();
        return process.TotalProcessorTime;
    }

    /// <summary>Errors a session may report while its peer or its server closes the connection under it.</summary>
    private static bool IsQuietClose(SocketError error)
        => error is SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.OperationAborted
            or SocketError.Shutdown or SocketError.NotConnected or SocketError.Disconnecting;

    /// <summary>Writes 16 KiB chunks until the connection fails.</summary>
    private static async Task WriteUntilClosedAsync(Stream stream)
    {
        var chunk = new byte[16 * 1024];
        try
        {
            while (true)
                await stream.WriteAsync(chunk).ConfigureAwait(false);
        }
        catch (Exception)
        {
            // The server closed: the end this loop waits for.
        }
    }

    /// <summary>Reads until end of stream or a reset, reporting each read's size, then closes the stream.</summary>
    private static async Task ReadUntilClosedAsync(Stream stream, Action<int> got)
    {
        var buffer = new byte[64 * 1024];
        try
        {
            int n;
            while ((n = await stream.ReadAsync(buffer).ConfigureAwait(false)) > 0)
                got(n);
        }
        catch (Exception)
        {
            // A reset is an end too.
        }
        // As a client does at the end of stream: close, which also ends the writing loop.
        await stream.DisposeAsync().ConfigureAwait(false);
    }

    /// <summary>Whether a fresh listening socket binds <paramref name="endpoint"/> now (and gives it back).</summary>
    private static bool TryBind(EndPoint endpoint, out string error)
    {
        error = "";
        var unix = endpoint is UnixDomainSocketEndPoint;
        using var socket = new Socket(endpoint.AddressFamily, SocketType.Stream, unix ? ProtocolType.Unspecified : ProtocolType.Tcp);
        try
        {
            socket.Bind(endpoint);
            socket.Listen();
            return true;
        }
        catch (SocketException exception)
        {
            error = exception.SocketErrorCode.ToString();
            return false;
        }
        finally
        {
            socket.Dispose();
            if (unix)
                File.Delete(endpoint.ToString()!);
        }
    }
}
