using System;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// One deadline on a <see cref="TimerWheel"/>, re-armed as often as its owner likes without allocating: a subclass is
/// the owner's timeout component (or <see cref="CallbackTimer"/> wraps a method). <see cref="Expired"/> runs once per
/// expiry on the thread pool, never under a lock, and not at all when the entry was re-armed or cancelled after it
/// expired but before the callback started. Thread-safe: every method may be called from any thread, callbacks included.
/// </summary>
internal abstract class TimerEntry : IThreadPoolWorkItem
{
    private readonly TimerWheel _wheel;

    // The wheel's bookkeeping, written under its lock: the slot's list, the slot index (-1 when in none), whether the
    // entry was closed for good; and the deadline (Environment.TickCount64 ms), which a re-arm may also move later
    // without the lock (compare-exchange): the entry is in a slot visited no later than its deadline.
    internal TimerEntry? WheelPrevious;
    internal TimerEntry? WheelNext;
    internal long WheelDue = TimerWheel.NotLinked;
    internal int WheelSlot = -1;
    internal bool WheelClosed;

    // 1 from expiry until the callback starts; cleared by a re-arm or cancel meanwhile (the expiry is stale then).
    internal int WheelPending;

    protected TimerEntry(TimerWheel wheel) => _wheel = wheel;

    /// <summary>The wheel that times this entry.</summary>
    public TimerWheel Wheel => _wheel;

    /// <summary>Arms the entry to expire once, <paramref name="dueIn"/> from now (replacing any earlier deadline); ignored once closed.</summary>
    public void Schedule(TimeSpan dueIn) => _wheel.Schedule(this, dueIn);

    /// <summary>Disarms the entry; it may be armed again.</summary>
    public void Cancel() => _wheel.Cancel(this, close: false);

    /// <summary>Disarms the entry for good (its owner ended): later <see cref="Schedule"/> calls do nothing.</summary>
    public void Close() => _wheel.Cancel(this, close: true);

    /// <summary>The deadline passed (on the thread pool, no lock held).</summary>
    protected abstract void Expired();

    void IThreadPoolWorkItem.Execute()
    {
        if (Interlocked.Exchange(ref WheelPending, 0) == 1)
            Expired();
    }
}
