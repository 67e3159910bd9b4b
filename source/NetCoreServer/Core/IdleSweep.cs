using System;
using System.Collections.Concurrent;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// One timer for every connection with an idle timeout: four times a second it walks the watched engines and lets each
/// check its own idleness. A per-connection timer re-armed under the engine's lock was the first design; one shared sweep
/// costs a dictionary entry per connection and takes no engine lock while the timer system holds its own.
/// </summary>
internal static class IdleSweep
{
    /// <summary>How often idleness is checked: an idle connection is closed at most this much after its timeout.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromMilliseconds(250);

    private static readonly ConcurrentDictionary<StreamSessionEngine, byte> s_watched = new();
    private static readonly Timer s_timer = new(static _ => Sweep(), null, Timeout.Infinite, Timeout.Infinite);
    private static int s_running;

    public static void Watch(StreamSessionEngine engine)
    {
        s_watched.TryAdd(engine, 0);
        if (Interlocked.Exchange(ref s_running, 1) == 0)
            s_timer.Change(Period, Period);
    }

    public static void Forget(StreamSessionEngine engine) => s_watched.TryRemove(engine, out _);

    private static void Sweep()
    {
        var now = Environment.TickCount64;
        foreach (var engine in s_watched.Keys)
        {
            try
            {
                engine.CheckIdle(now);
            }
            catch (Exception)
            {
                // A failing hook is the engine's to report (it runs them through Hooks); the sweep goes on for the rest.
            }
        }
    }
}
