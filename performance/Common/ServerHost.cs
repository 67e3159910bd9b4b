using System;
using System.IO;
using System.Security.Cryptography;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// The whole life of a benchmark server program: parse the options, pick the protocol, start, print the
/// "listening" line, wait for Ctrl+C, SIGTERM or the <c>--lifetime</c>, stop.
/// </summary>
public static class ServerHost
{
    /// <summary>The runtime's switch for running socket completions on its socket engine threads (see <see cref="ServerOptions.InlineCompletions"/>).</summary>
    public const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>The runtime's count of socket engine threads (see <see cref="ServerOptions.SocketThreads"/>).</summary>
    public const string SocketThreadsVariable = "DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT";

    /// <summary>Runs the program; returns its exit code (0 after a clean stop, 1 when the server failed, 2 for a bad command line).</summary>
    /// <param name="args">The command line.</param>
    /// <param name="title">What the server is, e.g. "Echo server"; starts the "listening" line.</param>
    /// <param name="catalog">The protocols this program implements.</param>
    /// <param name="defaultPath">The socket file of uds when <c>--path</c> is not given (see <see cref="Protocols.DefaultSocketPath"/>).</param>
    public static async Task<int> RunAsync<TOptions>(string[] args, string title, ProtocolCatalog<ServerFactory<TOptions>> catalog, string defaultPath)
        where TOptions : ServerOptions, new()
    {
        if (!OptionsParser.TryParse<TOptions>(args, out var options, out var exitCode))
            return exitCode;
        options.DefaultPath = defaultPath;
        if (!OptionsParser.TryResolve(catalog, options, out var factory))
            return ExitCodes.Usage;

        // Read once, when the runtime's socket engine starts: must be set before this process's first socket.
        if (options.InlineCompletions)
            Environment.SetEnvironmentVariable(InlineCompletionsVariable, "1");
        if (options.SocketThreads > 0)
            Environment.SetEnvironmentVariable(SocketThreadsVariable, options.SocketThreads.ToString(System.Globalization.CultureInfo.InvariantCulture));

        // Registered before the start, so that a SIGTERM sent during the start still ends in a clean stop.
        using var signal = new ShutdownSignal();
        IBenchmarkServer server;
        try
        {
            server = factory(options);
        }
        catch (UnsafeNetworkException exception)
        {
            Console.Error.WriteLine($"error: {exception.Message}");
            return ExitCodes.Usage;
        }
        catch (Exception exception) when (exception is FormatException or ArgumentException)
        {
            Console.Error.WriteLine($"error: invalid endpoint '{options.Target}': {exception.Message}");
            return ExitCodes.Usage;
        }
        catch (Exception exception) when (exception is CryptographicException or IOException or UnauthorizedAccessException)
        {
            Console.Error.WriteLine($"error: {title} could not load its certificate: {exception.Message}");
            return ExitCodes.Failure;
        }

        using (server)
        {
            try
            {
                if (!server.Start())
                {
                    Console.Error.WriteLine($"error: {title} could not start on {options.Target}");
                    return ExitCodes.Failure;
                }
            }
            catch (Exception exception)
            {
                Console.Error.WriteLine($"error: {title} could not start on {options.Target}: {exception.Message}");
                return ExitCodes.Failure;
            }

            var inline = Environment.GetEnvironmentVariable(InlineCompletionsVariable) == "1" ? ", inline socket completions" : "";
            if (Environment.GetEnvironmentVariable(SocketThreadsVariable) is { Length: > 0 } threads)
                inline += $", {threads} socket engine thread(s)";
            if (options.EventLoops >= 0)
                inline += options.EventLoops > 0 ? $", {options.EventLoops} event loop(s)" : ", thread pool";
            Console.WriteLine($"{title} ({options.Protocol.ToLowerInvariant()}{inline}) listening on {server.ListeningOn}");
            if (options.Stats)
                Console.WriteLine(ProcessStats.Line());
            var lifetime = options.Lifetime > 0 ? TimeSpan.FromSeconds(options.Lifetime) : Timeout.InfiniteTimeSpan;
            using var stats = options.Stats ? new Timer(_ => Console.WriteLine(ProcessStats.Line()), null, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(1)) : null;
            var signalled = await signal.WaitAsync(lifetime).ConfigureAwait(false);
            Console.WriteLine(signalled ? $"{title} stopping ({signal.Signalled.Result})" : $"{title} stopping (lifetime of {options.Lifetime} s reached)");
            server.Stop();
        }

        Console.WriteLine($"{title} stopped");
        if (options.Stats)
            Console.WriteLine(ProcessStats.Line());
        return ExitCodes.Success;
    }
}
