using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>Waits for a condition that no event reports, by looking at it every 10 ms.</summary>
internal static class Poll
{
    private static readonly TimeSpan s_interval = TimeSpan.FromMilliseconds(10);

    /// <summary>Returns once <paramref name="condition"/> holds; throws <see cref="OperationCanceledException"/> when cancelled.</summary>
    public static async Task UntilAsync(Func<bool> condition, CancellationToken cancellationToken)
    {
        while (!condition())
            await Task.Delay(s_interval, cancellationToken).ConfigureAwait(false);
    }
}
