using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>Measures one set of connections in this process: memory after opening them and letting them idle, minus memory before.</summary>
internal static class Measurement
{
    /// <summary>How long the connections sit without traffic before the reading: handshake leftovers (TLS 1.3 session tickets) and pending completions settle.</summary>
    public static readonly TimeSpan IdleTime = TimeSpan.FromSeconds(1);

    // Bounds opening or closing all connections, so that a stuck handshake cannot hang the run.
    private static readonly TimeSpan s_stepTimeout = TimeSpan.FromSeconds(60);

    // The first connections pay for JIT compilation, TLS library start-up and pools that every later connection shares.
    private const int WarmUpConnections = 16;

    /// <summary>Opens the set's connections, measures and closes them again.</summary>
    public static async Task<SetResult> RunAsync(string set, IdleOptions options)
    {
        await using var connections = ConnectionSets.Create(set, options);
        connections.Start();

        await StepAsync(token => connections.OpenAsync(WarmUpConnections, token), "opening the warm-up connections").ConfigureAwait(false);
        await StepAsync(connections.CloseAllAsync, "closing the warm-up connections").ConfigureAwait(false);

        var before = MemorySnapshot.Take();
        await StepAsync(token => connections.OpenAsync(options.Connections, token), $"opening {options.Connections} connections").ConfigureAwait(false);
        await Task.Delay(IdleTime).ConfigureAwait(false);
        var after = MemorySnapshot.Take();
        await StepAsync(connections.CloseAllAsync, "closing the connections").ConfigureAwait(false);

        return new SetResult(
            set,
            connections.Description,
            (after.ManagedBytes - before.ManagedBytes) / (double)options.Connections,
            (after.WorkingSetBytes - before.WorkingSetBytes) / (double)options.Connections);
    }

    private static async Task StepAsync(Func<CancellationToken, Task> step, string what)
    {
        using var timeout = new CancellationTokenSource(s_stepTimeout);
        try
        {
            await step(timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested)
        {
            throw new TimeoutException($"{what} took longer than {s_stepTimeout.TotalSeconds:0} s");
        }
    }
}
