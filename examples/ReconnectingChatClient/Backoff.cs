using System;
using System.Threading;

namespace ReconnectingChatClient;

/// <summary>
/// Exponential back-off with jitter: the n-th wait of an outage is drawn from [c/2, c], where the ceiling c starts at
/// <see cref="Initial"/> and doubles up to <see cref="Max"/>. Half fixed, half random ("equal jitter"): clients that
/// lost the same server spread their attempts instead of all coming back in the same millisecond, and each wait is
/// still at least as long as the one before until the ceiling stops growing.
/// </summary>
/// <remarks>Thread-safe: a manual reconnect and a scheduled one may both end in OnDisconnected.</remarks>
internal sealed class Backoff
{
    private readonly Lock _gate = new();
    private TimeSpan _ceiling;
    private int _attempt;

    /// <summary>Creates the policy.</summary>
    /// <param name="initial">The first ceiling, such as 100 ms.</param>
    /// <param name="max">The largest ceiling, such as 5 s.</param>
    public Backoff(TimeSpan initial, TimeSpan max)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(initial, TimeSpan.Zero);
        ArgumentOutOfRangeException.ThrowIfLessThan(max, initial);
        Initial = initial;
        Max = max;
        _ceiling = initial;
    }

    /// <summary>The ceiling of the first wait after a connection was lost.</summary>
    public TimeSpan Initial { get; }

    /// <summary>The largest ceiling: no wait is longer.</summary>
    public TimeSpan Max { get; }

    /// <summary>The wait before the next attempt, and that attempt's number in this outage (1 for the first).</summary>
    /// <param name="attempt">The number of the attempt that follows the wait.</param>
    /// <returns>The wait.</returns>
    public TimeSpan Next(out int attempt)
    {
        TimeSpan ceiling;
        lock (_gate)
        {
            ceiling = _ceiling;
            _ceiling = ceiling * 2 < Max ? ceiling * 2 : Max;
            attempt = ++_attempt;
        }
        return ceiling / 2 + ceiling / 2 * Random.Shared.NextDouble();
    }

    /// <summary>Starts over from <see cref="Initial"/>; call once connected.</summary>
    public void Reset()
    {
        lock (_gate)
        {
            _ceiling = Initial;
            _attempt = 0;
        }
    }
}
