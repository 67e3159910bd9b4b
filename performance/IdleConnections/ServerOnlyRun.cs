using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// <c>--server-only</c>: what idle connections cost the server process alone. Each round runs the library's
/// <see cref="TcpServer"/> and the raw <see cref="System.Net.Sockets.Socket"/> server (<see cref="RawIdleServer"/>)
/// one after the other, each in a fresh child process, with the same plain-socket clients opened from this process;
/// the order alternates from round to round so that a drift of the machine's load favours neither.
/// </summary>
internal static class ServerOnlyRun
{
    // The first connections pay for JIT compilation and pools that every later connection shares. Two rounds with a pause
    // after each, so that the runtime's tiered compilation has also recompiled the accept path's hot methods (tier 1,
    // after 30 calls once call counting starts, 100 ms after the last tier-0 compilation) before the reading: with
    // 16 warm-up connections that code, a one-time cost of a few hundred KiB, was read as working set per connection
    // (about 450 B of it over 10,000 connections, for both servers, more for the server with more code).
    private const int WarmUpConnections = 500;
    private const int WarmUpRounds = 2;
    private static readonly TimeSpan s_warmUpPause = TimeSpan.FromSeconds(1);

    // Bounds one server's whole measurement, so that a stuck child cannot hang the run.
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(5);

    /// <summary>One server's figures in one round, per connection.</summary>
    public sealed record Result(int Round, string Server, double ManagedBytesPerConnection, double WorkingSetBytesPerConnection);

    /// <summary>Runs the rounds; <paramref name="stop"/> cancels the one under way.</summary>
    public static async Task<IReadOnlyList<Result>> RunAsync(IdleOptions options, Task<string> stop)
    {
        var results = new List<Result>();
        // Cancels the server being measured once a signal arrived (a source without a timer needs no disposing).
        var stopping = new CancellationTokenSource();
        _ = stop.ContinueWith(_ => stopping.Cancel(), TaskScheduler.Default);
        for (var round = 1; round <= options.Rounds; round++)
        {
            string[] order = round % 2 == 1 ? [ConnectionSets.Library, ConnectionSets.Raw] : [ConnectionSets.Raw, ConnectionSets.Library];
            foreach (var server in order)
            {
                if (!options.Json)
                    Console.Error.WriteLine($"Round {round}: {options.Connections} idle tcp connections to the {server} server ...");
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(stopping.Token);
                timeout.CancelAfter(s_timeout);
                var (managed, workingSet) = await MeasureAsync(server, options.Connections, options.EventLoops, timeout.Token).ConfigureAwait(false);
                if (stop.IsCompleted)
                    throw new OperationCanceledException($"stopped by {await stop.ConfigureAwait(false)}");
                results.Add(new Result(round, server, managed, workingSet));
            }
        }
        return results;
    }

    private static async Task<(double Managed, double WorkingSet)> MeasureAsync(string server, int connections, int eventLoops, CancellationToken cancellationToken)
    {
        using var child = await ServerChild.StartAsync(server, eventLoops, cancellationToken).ConfigureAwait(false);
        using var clients = new PlainClients();

        for (var warmUp = 0; warmUp < WarmUpRounds; warmUp++)
        {
            await clients.OpenAsync(child.Port, WarmUpConnections, cancellationToken).ConfigureAwait(false);
            await child.WaitForAsync(WarmUpConnections, cancellationToken).ConfigureAwait(false);
            clients.CloseAll();
            await child.WaitForAsync(0, cancellationToken).ConfigureAwait(false);
            await Task.Delay(s_warmUpPause, cancellationToken).ConfigureAwait(false);
        }

        var before = await child.SnapshotAsync(cancellationToken).ConfigureAwait(false);
        await clients.OpenAsync(child.Port, connections, cancellationToken).ConfigureAwait(false);
        await child.WaitForAsync(connections, cancellationToken).ConfigureAwait(false);
        await Task.Delay(Measurement.IdleTime, cancellationToken).ConfigureAwait(false);
        var after = await child.SnapshotAsync(cancellationToken).ConfigureAwait(false);

        clients.CloseAll();
        await child.WaitForAsync(0, cancellationToken).ConfigureAwait(false);
        await child.QuitAsync(cancellationToken).ConfigureAwait(false);
        return ((after.ManagedBytes - before.ManagedBytes) / (double)connections,
            (after.WorkingSetBytes - before.WorkingSetBytes) / (double)connections);
    }

    /// <summary>Every round's figures, then the medians and the library's ratio to raw.</summary>
    public static void PrintTable(IdleOptions options, IReadOnlyList<Result> results)
    {
        Console.WriteLine($"Idle connections, server process only: {options.Connections} tcp connections on 127.0.0.1 from plain sockets in another");
        Console.WriteLine($"process, read {Measurement.IdleTime.TotalSeconds:0} s after the last one was accepted, after a full GC; {options.Rounds} rounds, the order alternating.");
        Console.WriteLine("Kernel socket buffers are not part of the working set." + (options.EventLoops switch { < 0 => " The TcpServer runs on the library's default engine.", 0 => " The TcpServer serves its sessions from the thread pool (OptionEventLoops = 0).", _ => $" The TcpServer serves its sessions from {options.EventLoops} event loop(s) (OptionEventLoops)." }));
        Console.WriteLine();
        Console.WriteLine($"{"Round",5} {"Server",-36} {"Managed B/conn",15} {"Working set B/conn",19}");
        foreach (var result in results)
            Console.WriteLine($"{result.Round,5} {Describe(result.Server),-36} {Bytes(result.ManagedBytesPerConnection),15} {Bytes(result.WorkingSetBytesPerConnection),19}");
        var (library, raw) = Medians(results);
        Console.WriteLine($"{"",5} {"median, " + Describe(ConnectionSets.Library),-36} {Bytes(library.Managed),15} {Bytes(library.WorkingSet),19}");
        Console.WriteLine($"{"",5} {"median, " + Describe(ConnectionSets.Raw),-36} {Bytes(raw.Managed),15} {Bytes(raw.WorkingSet),19}");
        Console.WriteLine();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"TcpServer / raw Socket server, per connection: managed {library.Managed / raw.Managed:0.00}x, working set {library.WorkingSet / raw.WorkingSet:0.00}x"));
    }

    /// <summary>One JSON line: the medians of both servers and their ratios.</summary>
    public static string ToJson(IdleOptions options, IReadOnlyList<Result> results)
    {
        var (library, raw) = Medians(results);
        return string.Create(CultureInfo.InvariantCulture,
            $"{{\"protocol\":\"tcp\",\"server_only\":true,\"connections\":{options.Connections},\"rounds\":{options.Rounds},"
            + $"\"managed_bytes_per_connection\":{Math.Round(library.Managed)},\"working_set_bytes_per_connection\":{Math.Round(library.WorkingSet)},"
            + $"\"raw_managed_bytes_per_connection\":{Math.Round(raw.Managed)},\"raw_working_set_bytes_per_connection\":{Math.Round(raw.WorkingSet)},"
            + $"\"managed_ratio\":{library.Managed / raw.Managed:0.000},\"working_set_ratio\":{library.WorkingSet / raw.WorkingSet:0.000}}}");
    }

    private static ((double Managed, double WorkingSet) Library, (double Managed, double WorkingSet) Raw) Medians(IReadOnlyList<Result> results)
    {
        (double, double) Of(string server)
        {
            var mine = results.Where(result => result.Server == server).ToList();
            return (Median(mine.Select(result => result.ManagedBytesPerConnection)), Median(mine.Select(result => result.WorkingSetBytesPerConnection)));
        }
        return (Of(ConnectionSets.Library), Of(ConnectionSets.Raw));
    }

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[sorted.Length / 2 - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private static string Describe(string server) => server == ConnectionSets.Library ? "NetCoreServer TcpServer" : "raw Socket server";

    private static string Bytes(double value) => value.ToString("N0", CultureInfo.InvariantCulture);
}
