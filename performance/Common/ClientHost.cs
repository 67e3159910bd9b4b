using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// The whole life of a benchmark client program: parse the options, pick the protocol, connect every client
/// (waiting at most <see cref="ConnectTimeout"/>), let them work for <c>-z</c> seconds (or until Ctrl+C),
/// take the final reading, disconnect them and print the table or the JSON line.
/// </summary>
public static class ClientHost
{
    /// <summary>How long all clients together may take to connect before the run is abandoned.</summary>
    public static readonly TimeSpan ConnectTimeout = TimeSpan.FromSeconds(10);

    /// <summary>How long all clients together may take to disconnect before the program stops waiting for them.</summary>
    public static readonly TimeSpan DisconnectTimeout = TimeSpan.FromSeconds(10);

    /// <summary>Runs the program; returns its exit code (0 after a measured run, 1 when it could not run, 2 for a bad command line).</summary>
    /// <param name="args">The command line.</param>
    /// <param name="catalog">The protocols this program implements.</param>
    /// <param name="defaultPath">The server's socket file for uds when <c>--path</c> is not given (see <see cref="Protocols.DefaultSocketPath"/>).</param>
    public static async Task<int> RunAsync<TOptions>(string[] args, ProtocolCatalog<ClientFactory<TOptions>> catalog, string defaultPath)
        where TOptions : ClientOptions, new()
    {
        if (!OptionsParser.TryParse<TOptions>(args, out var options, out var exitCode))
            return exitCode;
        options.DefaultPath = defaultPath;
        if (!OptionsParser.TryResolve(catalog, options, out var factory))
            return ExitCodes.Usage;

        using var signal = new ShutdownSignal();
        if (!options.Json)
            ResultReport.PrintHeader(options);

        var meters = new ConnectionMeter[options.Clients];
        var clients = new List<IBenchmarkClient>(options.Clients);
        try
        {
            var create = factory(options);
            for (var i = 0; i < meters.Length; i++)
            {
                meters[i] = new ConnectionMeter();
                clients.Add(create(meters[i]));
            }
        }
        catch (UnsafeNetworkException exception)
        {
            DisposeAll(clients);
            Console.Error.WriteLine($"error: {exception.Message}");
            return ExitCodes.Usage;
        }
        catch (Exception exception) when (exception is FormatException or ArgumentException)
        {
            DisposeAll(clients);
            Console.Error.WriteLine($"error: invalid endpoint '{options.Target}': {exception.Message}");
            return ExitCodes.Usage;
        }
        catch (Exception exception) when (exception is CryptographicException or IOException or UnauthorizedAccessException)
        {
            DisposeAll(clients);
            Console.Error.WriteLine($"error: could not load the certificate to validate the server with: {exception.Message}");
            return ExitCodes.Failure;
        }

        try
        {
            return await MeasureAsync(options, clients, meters, signal).ConfigureAwait(false);
        }
        finally
        {
            DisposeAll(clients);
        }
    }

    private static async Task<int> MeasureAsync(ClientOptions options, List<IBenchmarkClient> clients, ConnectionMeter[] meters, ShutdownSignal signal)
    {
        if (!options.Json)
            Console.WriteLine("Benchmarking...");

        for (var i = 0; i < clients.Count; i++)
        {
            if (!clients[i].StartConnecting())
                meters[i].ConnectFailed();
        }

        var connecting = Task.WhenAll(meters.Select(meter => meter.Connection));
        if (await Task.WhenAny(connecting, Task.Delay(ConnectTimeout)).ConfigureAwait(false) != connecting)
        {
            var done = meters.Count(meter => meter.Connection.IsCompletedSuccessfully && meter.Connection.Result);
            Console.Error.WriteLine($"error: only {done} of {clients.Count} clients connected to {options.Target} within {ConnectTimeout.TotalSeconds:0} s");
            await StopAllAsync(clients).ConfigureAwait(false);
            return ExitCodes.Failure;
        }

        var failedConnects = meters.Count(meter => !meter.Connection.Result);
        if (failedConnects == clients.Count)
        {
            Console.Error.WriteLine($"error: no client could connect to {options.Target} ({options.Protocol.ToLowerInvariant()})");
            return ExitCodes.Failure;
        }

        (long Bytes, long Errors) Sample()
        {
            long bytes = 0, errors = failedConnects;
            foreach (var meter in meters)
            {
                bytes += meter.ReceivedBytes;
                errors += meter.Errors;
            }
            return (bytes, errors);
        }

        // The clock starts once every client is connected, and what arrived before does not count: connecting 100 TLS
        // clients took about a tenth of a 3 s run, connecting one almost nothing (issue 23).
        var (bytesBefore, _) = Sample();
        var stopwatch = Stopwatch.StartNew();
        using (new ProgressLine(Sample, options.Size, options.Seconds))
            await signal.WaitAsync(TimeSpan.FromSeconds(options.Seconds)).ConfigureAwait(false);

        // The final reading comes before the disconnects, so that closing connections neither adds bytes nor counts as lost.
        var elapsed = stopwatch.Elapsed;
        var (totalBytes, totalErrors) = Sample();
        totalBytes -= bytesBefore;
        if (!options.Json)
            Console.WriteLine("Done!");
        await StopAllAsync(clients).ConfigureAwait(false);

        var result = new BenchmarkResult
        {
            Protocol = options.Protocol.ToLowerInvariant(),
            Address = options.UsesSocketFile ? options.ResolvedPath : options.Address,
            Port = options.UsesSocketFile ? 0 : options.ResolvedPort,
            Clients = options.Clients,
            Messages = options.ReportedMessages,
            Size = options.Size,
            Seconds = options.Seconds,
            Elapsed = elapsed,
            TotalBytes = totalBytes,
            Errors = totalErrors,
            Lost = options.ReportsLoss ? meters.Sum(meter => meter.LostDatagrams) : null,
        };
        if (options.Json)
            Console.WriteLine(ResultReport.ToJson(result));
        else
            ResultReport.PrintTable(result);
        return ExitCodes.Success;
    }

    private static async Task StopAllAsync(List<IBenchmarkClient> clients)
    {
        var stopping = Task.WhenAll(clients.Select(client => client.StopAsync()));
        if (await Task.WhenAny(stopping, Task.Delay(DisconnectTimeout)).ConfigureAwait(false) != stopping)
            Console.Error.WriteLine($"warning: not every client disconnected within {DisconnectTimeout.TotalSeconds:0} s");
    }

    private static void DisposeAll(List<IBenchmarkClient> clients)
    {
        foreach (var client in clients)
            client.Dispose();
    }
}
