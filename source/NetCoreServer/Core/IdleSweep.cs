using System;
using System.Collections.Concurrent;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// One timer for every connection with an idle timeout: four times a second it walks the watched engines and lets each
/// check its own idleness. A per-connection timer re-armed under the engine's lock was the first design; one shared sweep
/// costs a dictionary entry per connection and takes no engine lock while the timer system holds its own. The timer stops
/// when no connection is watched and starts again with the next one.
/// </summary>
internal static class IdleSweep
{
    /// <summary>How often idleness is checked: an idle connection is closed at most this much after its timeout.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromMilliseconds(250);

    private static readonly ConcurrentDictionary<StreamSessionEngine, byte> s_watched = new();
    private static readonly Timer s_timer = new(static _ => Sweep(), null, Timeout.Infinite, Timeout.Infinite);

    // Guards starting and stopping the timer: it runs only while some connection is watched, so that a process whose
    // servers have stopped (or whose connections have no idle timeout) has no thread waking up for nothing.
    private static readonly object s_gate = new();
    private static bool s_running;

    public static void Watch(StreamSessionEngine engine)
    {
        s_watched.TryAdd(engine, 0);
        lock (s_gate)
        {
            if (s_running)
                return;
            s_running = true;
            s_timer.Change(Period, Period);
        }
    }

    public static void Forget(StreamSessionEngine engine) => s_watched.TryRemove(engine, out _);

    private static void Sweep()
    {
        if (s_watched.IsEmpty)
        {
            // Checked again under the gate: a Watch adds before it takes the gate, so either it is seen here and the
            // timer keeps running, or it comes after and starts the timer again.
            lock (s_gate)
            {
                if (s_watched.IsEmpty && s_running)
                {
                    s_running = false;
                    s_timer.Change(Timeout.Infinite, Timeout.Infinite);
                }
            }
            return;
        }
        var now = Environment.TickCount64;
        // Enumerating the dictionary itself, not its Keys, which would copy every key into a new list per sweep.
        foreach (var (engine, _) in s_watched)
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
