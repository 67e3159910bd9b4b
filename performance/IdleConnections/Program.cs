using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// Idle connections benchmark: what an idle connection costs in memory. A server on 127.0.0.1 (port 0) and
/// <c>-c</c> clients (default 1000) run in one process; once every connection is ready (for ssl, handshaked) and has
/// been idle for 1 s, a full GC runs and the managed heap and working set are read, against a reading before the
/// connections were opened. The same is done for raw <see cref="System.Net.Sockets.Socket"/> pairs (and for ssl,
/// raw <see cref="System.Net.Security.SslStream"/> pairs), so that the library's own share shows. Each set is measured
/// in a fresh process. Prints a table, or one JSON line with <c>--json</c>. With <c>--server-only</c> (tcp), the server
/// runs alone in its own process and the clients in this one, so that the figure is what the server process pays per
/// connection, against a raw Socket server measured in the same run (see <see cref="ServerOnlyRun"/>).
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        if (!OptionsParser.TryParse<IdleOptions>(args, out var options, out var exitCode))
            return exitCode;

        try
        {
            if (options.Serve is { } server)
            {
                await ServerPhase.RunAsync(server, options.EventLoops).ConfigureAwait(false);
                return ExitCodes.Success;
            }
            if (options.Phase is { } set)
            {
                Console.WriteLine(IdleReport.ToJson(await Measurement.RunAsync(set, options).ConfigureAwait(false)));
                return ExitCodes.Success;
            }

            // Ctrl+C or SIGTERM kills the child being measured, which would otherwise finish its run on its own.
            using var signal = new ShutdownSignal();
            if (options.ServerOnly)
            {
                var rounds = await ServerOnlyRun.RunAsync(options, signal.Signalled).ConfigureAwait(false);
                if (options.Json)
                    Console.WriteLine(ServerOnlyRun.ToJson(options, rounds));
                else
                    ServerOnlyRun.PrintTable(options, rounds);
                return ExitCodes.Success;
            }
            var results = new List<SetResult>();
            foreach (var name in ConnectionSets.For(options))
            {
                if (!options.Json)
                    Console.Error.WriteLine($"Measuring {options.Connections} idle {options.Protocol.ToLowerInvariant()} connections: {name} ...");
                results.Add(await ChildProcess.MeasureAsync(name, options, signal.Signalled).ConfigureAwait(false));
            }

            if (options.Json)
                Console.WriteLine(IdleReport.ToJson(options, results));
            else
                IdleReport.PrintTable(options, results);
            return ExitCodes.Success;
        }
        catch (Exception exception) when (exception is IOException or SocketException or TimeoutException or OperationCanceledException
            or AuthenticationException or CryptographicException or UnauthorizedAccessException)
        {
            Console.Error.WriteLine($"error: {exception.Message}");
            return ExitCodes.Failure;
        }
    }
}
