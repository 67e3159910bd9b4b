using System;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// One timer for every timeout of a server's connections (idle, keep-alive, header, body, WebSocket ping and close): a
/// hashed wheel of <see cref="SlotCount"/> slots, one per tick of <see cref="Resolution"/>. Arming, re-arming and
/// cancelling an entry are O(1) and allocate nothing; one <see cref="System.Threading.Timer"/> is set for the next tick
/// that holds an entry, so a wheel with nothing due soon does not wake up. An entry expires at its deadline or up to
/// one tick later, never earlier; its callback is queued to the thread pool, never run under the wheel's lock.
/// </summary>
/// <remarks>
/// Time: <see cref="Now"/> and the wheel's timer come from its <see cref="TimeProvider"/>, so a fake provider moves the
/// wheel's deadlines when the fake clock moves; <see cref="TimeProvider.System"/> reads <see cref="Environment.TickCount64"/> as before.
/// Lock: one per wheel, held only for list and bitmap updates (and arming the timer); see docs/design/timer-wheel.md.</remarks>
internal sealed class TimerWheel
{
    /// <summary>How far apart ticks are by default: an entry expires at most this late.</summary>
    public static readonly TimeSpan DefaultResolution = TimeSpan.FromMilliseconds(16);

    /// <summary>Slots in the wheel (a power of two): deadlines further than this many ticks away wait a round per lap.</summary>
    public const int SlotCount = 1024;

    private const int Mask = SlotCount - 1;

    // About 35,000 years: a longer delay is kept at this, which no process outlives.
    private const long MaxDelay = 1L << 50;

    /// <summary>The deadline of an entry in no slot (never armed, cancelled, closed or expired).</summary>
    internal const long NotLinked = long.MaxValue;

    private static readonly ConditionalWeakTable<TimeProvider, TimerWheel> s_byProvider = new();

    private readonly object _lock = new();
    private readonly long _tickMs;

    // Null for the system clock (Now is then Environment.TickCount64, one call); else the provider and its timestamp
    // and Now at the wheel's creation, so that its Now counts milliseconds on from where the system's was.
    private readonly TimeProvider? _time;
    private readonly long _originStamp;
    private readonly long _originMs;
    private TimerEntry?[]? _slots;
    private ulong[]? _occupied;
    private ITimer? _timer;
    private long _cursor;
    private long _armedTick = long.MaxValue;
    private int _count;

    /// <summary>Makes a wheel on <paramref name="time"/> (null: the system clock); its arrays and timer come with the first entry armed.</summary>
    public TimerWheel(TimeSpan resolution = default, TimeProvider? time = null)
    {
        _tickMs = resolution <= TimeSpan.Zero ? (long)DefaultResolution.TotalMilliseconds : Math.Max(1, (long)resolution.TotalMilliseconds);
        _originMs = Environment.TickCount64;
        if (time != null && time != TimeProvider.System)
        {
            _time = time;
            _originStamp = time.GetTimestamp();
        }
        _cursor = Now / _tickMs;
    }

    /// <summary>The process-wide wheel of clients (which have no server) on the system clock, and of anything else without one.</summary>
    public static TimerWheel Shared { get; } = new();

    /// <summary>The wheel of clients on <paramref name="time"/>: <see cref="Shared"/> for the system clock (or null), else one per provider.</summary>
    public static TimerWheel For(TimeProvider? time) =>
        time == null || time == TimeProvider.System ? Shared : s_byProvider.GetValue(time, static t => new TimerWheel(default, t));

    /// <summary>The clock of this wheel's provider in milliseconds (<see cref="Environment.TickCount64"/> on the system clock): deadlines and the owners' "last seen" times are in it.</summary>
    public long Now => _time == null ? Environment.TickCount64 : _originMs + (long)_time.GetElapsedTime(_originStamp).TotalMilliseconds;

    /// <summary>The provider of <see cref="Now"/> and of the wheel's timer.</summary>
    public TimeProvider Time => _time ?? TimeProvider.System;

    /// <summary>The tick length: an entry expires at most this late.</summary>
    public TimeSpan Resolution => TimeSpan.FromMilliseconds(_tickMs);

    /// <summary>Entries armed now (for tests).</summary>
    internal int Count
    {
        get
        {
            lock (_lock)
                return _count;
        }
    }

    internal void Schedule(TimerEntry entry, TimeSpan dueIn)
    {
        var now = Now;
        var delay = dueIn <= TimeSpan.Zero ? 0 : (dueIn.Ticks + TimeSpan.TicksPerMillisecond - 1) / TimeSpan.TicksPerMillisecond;
        var due = now + Math.Min(delay, MaxDelay);
        // Later than the deadline it is linked for (a keep-alive clock restarted): the entry stays in its slot, whose
        // visit comes first and moves it on. No lock; a racing visit, cancel or earlier re-arm makes the exchange fail.
        var current = Volatile.Read(ref entry.WheelDue);
        if (due >= current && current != NotLinked && Interlocked.CompareExchange(ref entry.WheelDue, due, current) == current)
            return;
        lock (_lock)
        {
            if (entry.WheelClosed)
                return;
            entry.WheelPending = 0;
            if (_slots == null)
            {
                _slots = new TimerEntry?[SlotCount];
                _occupied = new ulong[SlotCount / 64];
            }
            if (_count == 0)
                _cursor = Math.Max(_cursor, now / _tickMs);
            // A tick already visited would come round only a lap later: such a deadline goes to the next tick.
            var tick = Math.Max((due + _tickMs - 1) / _tickMs, _cursor);
            MoveLocked(entry, (int)(tick & Mask));
            // Written last: a lock-free re-arm racing with this one is overwritten, as if it came first.
            Volatile.Write(ref entry.WheelDue, due);
            if (tick < _armedTick)
                ArmLocked(tick, now);
        }
    }

    internal void Cancel(TimerEntry entry, bool close)
    {
        lock (_lock)
        {
            entry.WheelPending = 0;
            entry.WheelClosed |= close;
            if (entry.WheelSlot >= 0)
                UnlinkLocked(entry);
            Volatile.Write(ref entry.WheelDue, NotLinked);
        }
        // The timer stays set: when it fires with nothing left, it is not set again.
    }

    private void OnTick()
    {
        var now = Now;
        lock (_lock)
        {
            _armedTick = long.MaxValue;
            var last = now / _tickMs;
            if (last >= _cursor)
            {
                // Late by a lap or more: every slot once is every entry once.
                var tick = Math.Max(_cursor, last - Mask);
                while (_count > 0 && tick <= last)
                {
                    tick += DistanceToOccupiedLocked((int)(tick & Mask));
                    if (tick > last)
                        break;
                    ExpireLocked((int)(tick & Mask), now);
                    tick++;
                }
                _cursor = last + 1;
            }
            if (_count > 0)
                ArmLocked(_cursor + DistanceToOccupiedLocked((int)(_cursor & Mask)), now);
        }
    }

    /// <summary>Queues the callbacks of the slot's entries whose deadline passed; the others move to their deadline's slot.</summary>
    private void ExpireLocked(int slot, long now)
    {
        var entry = _slots![slot];
        while (entry != null)
        {
            var next = entry.WheelNext;
            var due = Volatile.Read(ref entry.WheelDue);
            if (due <= now && Interlocked.CompareExchange(ref entry.WheelDue, NotLinked, due) == due)
            {
                UnlinkLocked(entry);
                entry.WheelPending = 1;
                ThreadPool.UnsafeQueueUserWorkItem(entry, preferLocal: false);
            }
            else
            {
                // Re-armed later without the lock (or a later lap): to the slot of its deadline, after this visit.
                due = Volatile.Read(ref entry.WheelDue);
                var tick = Math.Max((due + _tickMs - 1) / _tickMs, now / _tickMs + 1);
                MoveLocked(entry, (int)(tick & Mask));
            }
            entry = next;
        }
    }

    /// <summary>Sets the timer to wake at <paramref name="tick"/> (the earliest tick that holds an entry, or earlier).</summary>
    private void ArmLocked(long tick, long now)
    {
        _armedTick = tick;
        if (_timer == null)
        {
            // The wheel outlives the connection that happened to arm it first: its timer carries no caller's context.
            using (ExecutionContext.IsFlowSuppressed() ? default(AsyncFlowControl?) : ExecutionContext.SuppressFlow())
                _timer = _time == null
                    ? new Timer(static s => ((TimerWheel)s!).OnTick(), this, Timeout.Infinite, Timeout.Infinite)
                    : _time.CreateTimer(static s => ((TimerWheel)s!).OnTick(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        }
        _timer.Change(TimeSpan.FromMilliseconds(Math.Max(tick * _tickMs - now, 0)), Timeout.InfiniteTimeSpan);
    }

    /// <summary>How many slots from <paramref name="start"/> (itself included, wrapping) to the first holding an entry; entries exist.</summary>
    private int DistanceToOccupiedLocked(int start)
    {
        var occupied = _occupied!;
        var word = start >> 6;
        var bits = occupied[word] & (~0UL << (start & 63));
        // One word more than the map: back at the start word, its bits below the start are the last candidates.
        for (var i = 0; i <= occupied.Length; i++)
        {
            if (bits != 0)
                return ((word << 6) + BitOperations.TrailingZeroCount(bits) - start) & Mask;
            word = (word + 1) & (occupied.Length - 1);
            bits = occupied[word];
        }
        return 0;
    }

    private void MoveLocked(TimerEntry entry, int slot)
    {
        if (entry.WheelSlot == slot)
            return;
        if (entry.WheelSlot >= 0)
            UnlinkLocked(entry);
        LinkLocked(entry, slot);
    }

    private void LinkLocked(TimerEntry entry, int slot)
    {
        var head = _slots![slot];
        entry.WheelPrevious = null;
        entry.WheelNext = head;
        if (head != null)
            head.WheelPrevious = entry;
        _slots[slot] = entry;
        entry.WheelSlot = slot;
        _occupied![slot >> 6] |= 1UL << (slot & 63);
        _count++;
    }

    private void UnlinkLocked(TimerEntry entry)
    {
        var slot = entry.WheelSlot;
        if (entry.WheelPrevious != null)
            entry.WheelPrevious.WheelNext = entry.WheelNext;
        else
            _slots![slot] = entry.WheelNext;
        if (entry.WheelNext != null)
            entry.WheelNext.WheelPrevious = entry.WheelPrevious;
        if (_slots![slot] == null)
            _occupied![slot >> 6] &= ~(1UL << (slot & 63));
        entry.WheelPrevious = null;
        entry.WheelNext = null;
        entry.WheelSlot = -1;
        _count--;
    }
}
