using System;
using System.Globalization;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// The child side of <c>--server-only</c> (<c>--serve library|raw</c>): runs one server and nothing else, so that its
/// process's memory is the server's alone. It prints <c>port N</c>, then answers the parent's commands on stdin, one
/// line each: <c>wait N</c> (returns <c>ok</c> once the server holds exactly N connections), <c>snapshot</c> (a
/// <see cref="MemorySnapshot"/> as <c>managed working_set</c>) and <c>quit</c>.
/// </summary>
internal static class ServerPhase
{
    /// <summary>Server names <c>--serve</c> takes.</summary>
    public static bool IsKnown(string name) => name is ConnectionSets.Library or ConnectionSets.Raw;

    // A wait for connections that the parent has opened or closed; far longer means they never arrive.
    private static readonly TimeSpan s_waitTimeout = TimeSpan.FromSeconds(120);

    /// <summary>Serves until <c>quit</c> or the end of stdin.</summary>
    /// <param name="name">library or raw.</param>
    /// <param name="eventLoops">The library server's OptionEventLoops.</param>
    public static async Task RunAsync(string name, int eventLoops)
    {
        using IIdleServer server = name == ConnectionSets.Library ? new IdleTcpServer { OptionEventLoops = eventLoops < 0 ? EventLoops.DefaultCount : eventLoops } : new RawIdleServer();
        if (!server.Start())
            throw new IOException("the server did not start");
        Console.WriteLine($"port {server.BoundPort}");
        while (Console.ReadLine() is { } command)
        {
            var words = command.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            switch (words)
            {
                case ["wait", var count]:
                    var target = long.Parse(count, CultureInfo.InvariantCulture);
                    using (var timeout = new CancellationTokenSource(s_waitTimeout))
                        await Poll.UntilAsync(() => server.ConnectedSessions == target, timeout.Token).ConfigureAwait(false);
                    Console.WriteLine("ok");
                    break;
                case ["snapshot"]:
                    var snapshot = MemorySnapshot.Take();
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{snapshot.ManagedBytes} {snapshot.WorkingSetBytes}"));
                    break;
                case ["quit"]:
                    server.Stop();
                    return;
                default:
                    throw new IOException($"unknown command '{command}'");
            }
        }
        server.Stop();
    }
}
