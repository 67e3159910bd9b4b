using System;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;

namespace NetCoreServer.Engine;

/// <summary>
/// The idle timeout's check, one per <see cref="TimerWheel"/> (a server's, or the shared one of clients): every
/// <see cref="Period"/> it lets each watched engine check its own idleness. It is an entry on the wheel, armed only
/// while some engine is watched. Each watched engine costs a dictionary entry; the engine keeps its own last-receive
/// time, so the check walks them all (docs/design/timer-wheel.md says what an engine-owned entry would save).
/// </summary>
internal sealed class IdleSweep
{
    /// <summary>How often idleness is checked: an idle connection is closed at most this much (and a tick) after its timeout.</summary>
    public static readonly TimeSpan Period = TimeSpan.FromMilliseconds(250);

    private static readonly ConditionalWeakTable<TimerWheel, IdleSweep> s_sweeps = new();

    private readonly ConcurrentDictionary<StreamSessionEngine, byte> _watched = new();
    private readonly CallbackTimer _timer;

    // Guards starting and stopping the sweep: it is armed only while some connection is watched.
    private readonly object _gate = new();
    private bool _running;

    private IdleSweep(TimerWheel wheel) => _timer = new CallbackTimer(wheel, static s => ((IdleSweep)s).Sweep(), this);

    /// <summary>Starts checking <paramref name="engine"/> on its server's wheel.</summary>
    public static void Watch(StreamSessionEngine engine)
    {
        var sweep = s_sweeps.GetValue(WheelOf(engine), static wheel => new IdleSweep(wheel));
        sweep._watched.TryAdd(engine, 0);
        lock (sweep._gate)
        {
            if (sweep._running)
                return;
            sweep._running = true;
            sweep._timer.Schedule(Period);
        }
    }

    /// <summary>Stops checking <paramref name="engine"/>.</summary>
    public static void Forget(StreamSessionEngine engine)
    {
        if (s_sweeps.TryGetValue(WheelOf(engine), out var sweep))
            sweep._watched.TryRemove(engine, out _);
    }

    // The engine's options name its server (or a client's clock) for as long as it lives (a private copy keeps both).
    private static TimerWheel WheelOf(StreamSessionEngine engine) => engine.Options.Timers;

    private void Sweep()
    {
        if (_watched.IsEmpty)
        {
            // Checked again under the gate: a Watch adds before it takes the gate, so either it is seen here and the
            // sweep goes on, or it comes after and arms the sweep again.
            lock (_gate)
            {
                if (_watched.IsEmpty)
                {
                    _running = false;
                    return;
                }
            }
        }
        var now = _timer.Wheel.Now;
        // Enumerating the dictionary itself, not its Keys, which would copy every key into a new list per sweep.
        foreach (var (engine, _) in _watched)
        {
            // Forgotten on another wheel (a client's clock changed while connected): dropped here, not kept forever.
            if (engine.Closed)
            {
                _watched.TryRemove(engine, out _);
                continue;
            }
            try
            {
                engine.CheckIdle(now);
            }
            catch (Exception)
            {
                // A failing hook is the engine's to report (it runs them through Hooks); the sweep goes on for the rest.
            }
        }
        _timer.Schedule(Period);
    }
}
