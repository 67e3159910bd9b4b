using System;
using System.Buffers;
using System.Collections.Generic;
using System.Threading;

namespace NetCoreServer.Buffers;

/// <summary>
/// The stream engine's buffers: small ones (up to 64 KiB) from the shared <see cref="ArrayPool{T}"/>, large ones from a
/// pool of its own that is emptied after a burst. Every buffer, whatever its size, counts in <see cref="HeldBytes"/>:
/// once what the engine held has fallen by <see cref="BurstBytes"/> or more (clients of an attack left) and stopped
/// falling, one collection is asked for, so a process returns near its pre-burst memory within seconds. The AppContext
/// switch <c>NetCoreServer.DisableCollectAfterBurst</c> turns the collection off. Figures: docs/design/engine-buffers.md.
/// </summary>
internal static class EngineBuffers
{
    /// <summary>Largest buffer taken from the shared pool.</summary>
    public const int SmallLimit = 64 * 1024;

    /// <summary>How long no large buffer may have been rented or given back before the large pool is emptied.</summary>
    public static readonly TimeSpan IdleBeforeTrim = TimeSpan.FromSeconds(2);

    /// <summary>How long what the engine holds must have stopped falling before the collection (the burst's clients have all left).</summary>
    public static readonly TimeSpan SettleBeforeCollect = TimeSpan.FromSeconds(1);

    /// <summary>Garbage left by the engine's buffers (held at the peak, not held now nor pooled) worth one collection.</summary>
    public const long BurstBytes = 64L * 1024 * 1024;

    private static readonly TimeSpan TrimCheckPeriod = TimeSpan.FromMilliseconds(500);

    // Size classes 128 KiB .. 16 MiB (powers of two); larger buffers are not pooled.
    private const int FirstShift = 17;
    private const int Classes = 8;
    private const int MaxPerClass = 64;

    // Held bytes are counted in one cell per core, a cache line apart (16 longs), so renting a buffer costs one
    // uncontended interlocked add; a cell that moves a step away from zero wakes the trimmer, which folds the cells.
    private const int CellStride = 16;
    private const long CellStep = 1024 * 1024;

    private static readonly Stack<byte[]>[] s_classes = CreateClasses();
    private static readonly int s_cellMask = (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)Environment.ProcessorCount) - 1;
    private static readonly long[] s_cells = new long[(s_cellMask + 1) * CellStride];
    private static ITimer s_trimmer = new Timer(static _ => Trim(), null, Timeout.Infinite, Timeout.Infinite);

    // The trim's clock: null for the system's (TickCount64); a test's fake one counts on from the TickCount64 at its switch.
    private static TimeProvider? s_time;
    private static long s_timeOriginStamp;
    private static long s_timeOriginMs;
    private static readonly bool s_collect = !(AppContext.TryGetSwitch("NetCoreServer.DisableCollectAfterBurst", out var disabled) && disabled);
    private static long s_lastLargeUse;
    private static long s_released;
    private static int s_armed;

    // The folded total and the most held since the last collection: raised by a cell that moves a step (any thread,
    // interlocked) and by the trimmer's ticks.
    private static long s_heldBase;
    private static long s_peak;

    // The trimmer's own state (one tick at a time: the timer's callbacks do not overlap, see Trim).
    private static long s_lastHeld;
    private static long s_lastFall;
    private static long s_releasedSeen;
    private static int s_trimming;

    /// <summary>Bytes held by the large pool now (not rented).</summary>
    public static long PooledBytes
    {
        get
        {
            long total = 0;
            for (var i = 0; i < s_classes.Length; i++)
            {
                lock (s_classes[i])
                    total += (long)s_classes[i].Count << (FirstShift + i);
            }
            return total;
        }
    }

    /// <summary>Bytes of buffers rented and not given back, of every size (approximate while they move).</summary>
    public static long HeldBytes
    {
        get
        {
            var total = Volatile.Read(ref s_heldBase);
            for (var i = 0; i < s_cells.Length; i += CellStride)
                total += Volatile.Read(ref s_cells[i]);
            return total;
        }
    }

    /// <summary>Collections asked for after bursts so far (for tests and diagnostics).</summary>
    public static int Collections { get; private set; }

    /// <summary>The most held (and pooled) since the last collection, as the trimmer saw it (for tests).</summary>
    internal static long PeakBytes => Volatile.Read(ref s_peak);

    /// <summary>True while the trimmer ticks; it stops once nothing is left to watch (for tests).</summary>
    internal static bool Watching => Volatile.Read(ref s_armed) == 1;

    /// <summary>
    /// Moves the trim onto <paramref name="time"/> (null: the system clock) for the whole process, since the pool is the
    /// process's: only for tests that run alone ([NonParallelizable]); servers' own clocks never reach it.
    /// </summary>
    internal static void UseClock(TimeProvider? time)
    {
        var old = s_trimmer;
        s_timeOriginMs = Environment.TickCount64;
        s_timeOriginStamp = time?.GetTimestamp() ?? 0;
        s_time = time == TimeProvider.System ? null : time;
        var timer = s_time == null
            ? new Timer(static _ => Trim(), null, Timeout.Infinite, Timeout.Infinite)
            : s_time.CreateTimer(static _ => Trim(), null, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        Volatile.Write(ref s_trimmer, timer);
        old.Dispose();
        if (Volatile.Read(ref s_armed) == 1)
            timer.Change(TrimCheckPeriod, TrimCheckPeriod);
    }

    private static long Now => s_time is { } time ? s_timeOriginMs + (long)time.GetElapsedTime(s_timeOriginStamp).TotalMilliseconds : Environment.TickCount64;

    /// <summary>A buffer of at least <paramref name="minimum"/> bytes; give it back with <see cref="Return"/>.</summary>
    public static byte[] Rent(int minimum)
    {
        if (minimum <= SmallLimit)
        {
            var small = ArrayPool<byte>.Shared.Rent(minimum);
            Hold(small.Length);
            return small;
        }
        var index = ClassOf(minimum);
        var size = index >= 0 ? 1 << (FirstShift + index) : minimum;
        Hold(size);
        UsedLarge();
        if (index >= 0)
        {
            var pool = s_classes[index];
            lock (pool)
            {
                if (pool.Count > 0)
                    return pool.Pop();
            }
        }
        return GC.AllocateUninitializedArray<byte>(size);
    }

    /// <summary>Gives back a buffer from <see cref="Rent"/>.</summary>
    public static void Return(byte[] array)
    {
        Hold(-array.Length);
        if (array.Length <= SmallLimit)
        {
            ArrayPool<byte>.Shared.Return(array);
            return;
        }
        var index = ClassOf(array.Length);
        if (index >= 0 && array.Length == 1 << (FirstShift + index))
        {
            var pool = s_classes[index];
            lock (pool)
            {
                if (pool.Count < MaxPerClass)
                    pool.Push(array);
            }
        }
        // After the push: a trimmer that disarms meanwhile sees the pool not empty and arms again.
        UsedLarge();
    }

    /// <summary>
    /// Notes a large array (not from this pool) that has just become garbage, such as a copy of a response that went
    /// out in pieces: once the connections go quiet, a collection gives its memory back.
    /// </summary>
    public static void Released(long bytes)
    {
        if (bytes <= SmallLimit)
            return;
        Interlocked.Add(ref s_released, bytes);
        Arm();
    }

    private static void Hold(long bytes)
    {
        ref var cell = ref s_cells[(Thread.GetCurrentProcessorId() & s_cellMask) * CellStride];
        // Beyond a step either way (|cell| > CellStep) in one unsigned compare.
        if ((ulong)(Interlocked.Add(ref cell, bytes) + CellStep) <= 2 * CellStep)
            return;
        // Folded at once, and the peak raised here: a burst that rises and falls between two ticks of the trimmer would
        // otherwise leave no trace (a test's attack of 100 MiB went unseen). Once per MiB moved on a core.
        var total = Interlocked.Add(ref s_heldBase, Interlocked.Exchange(ref cell, 0));
        RaisePeak(total);
        Arm();
    }

    /// <summary>Raises the peak to <paramref name="held"/> if it is higher (any thread).</summary>
    private static void RaisePeak(long held)
    {
        var peak = Volatile.Read(ref s_peak);
        while (held > peak)
        {
            var seen = Interlocked.CompareExchange(ref s_peak, held, peak);
            if (seen == peak)
                return;
            peak = seen;
        }
    }

    private static void UsedLarge()
    {
        Volatile.Write(ref s_lastLargeUse, Now);
        Arm();
    }

    /// <summary>Size class of <paramref name="size"/> bytes (the smallest class that holds it); -1 when too large to pool.</summary>
    private static int ClassOf(int size)
    {
        var shift = 64 - System.Numerics.BitOperations.LeadingZeroCount((ulong)(size - 1));
        var index = Math.Max(shift, FirstShift) - FirstShift;
        return index < Classes ? index : -1;
    }

    private static void Arm()
    {
        if (Volatile.Read(ref s_armed) == 0 && Interlocked.Exchange(ref s_armed, 1) == 0)
            Volatile.Read(ref s_trimmer).Change(TrimCheckPeriod, TrimCheckPeriod);
    }

    /// <summary>
    /// One tick of the trimmer: folds the cells into the held total, empties the large pool once it has been idle, and
    /// asks for a collection once enough of what was held has become garbage and the fall has stopped.
    /// </summary>
    private static void Trim()
    {
        // A tick that runs late may overlap the next one: one at a time, the other skips.
        if (Interlocked.Exchange(ref s_trimming, 1) == 1)
            return;
        try
        {
            TrimOnce();
        }
        finally
        {
            Volatile.Write(ref s_trimming, 0);
        }
    }

    private static void TrimOnce()
    {
        var now = Now;
        var held = Fold();
        var moved = Math.Abs(held - s_lastHeld) >= CellStep;
        if (s_lastHeld - held >= CellStep)
            s_lastFall = now;
        s_lastHeld = held;

        if (now - Volatile.Read(ref s_lastLargeUse) >= IdleBeforeTrim.TotalMilliseconds)
        {
            foreach (var pool in s_classes)
            {
                lock (pool)
                    pool.Clear();
            }
        }
        var pooled = PooledBytes;
        var released = Volatile.Read(ref s_released);
        // Only a fall from the peak counts: a connection count that swings up and down around a level leaves no garbage.
        RaisePeak(held + pooled);
        var garbage = Volatile.Read(ref s_peak) - held - pooled + released;
        if (garbage >= BurstBytes && now - s_lastFall >= SettleBeforeCollect.TotalMilliseconds)
        {
            // The pooled buffers stay counted in the peak: when the pool is emptied later, they are garbage in turn.
            Volatile.Write(ref s_peak, held + pooled);
            Interlocked.Add(ref s_released, -released);
            released = 0;
            garbage = 0;
            if (s_collect)
            {
                Collections++;
                // Aggressive: a blocking, compacting collection that also gives free memory back to the system. It runs
                // once per burst, when the connections have gone quiet and little is left alive; a plain collection
                // would free the buffers but keep their memory committed for reuse.
                GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
            }
        }
        s_releasedSeen = released;
        if (moved || pooled > 0 || garbage >= BurstBytes)
            return;

        // Nothing to watch: disarm first, then look again, so that a rent, return or release racing with this re-arms.
        Volatile.Write(ref s_armed, 0);
        Volatile.Read(ref s_trimmer).Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        if (PooledBytes > 0 || Volatile.Read(ref s_released) != s_releasedSeen || CellsAway())
            Arm();
    }

    /// <summary>Moves the cells' counts into the held total; returns the total.</summary>
    private static long Fold()
    {
        long moved = 0;
        for (var i = 0; i < s_cells.Length; i += CellStride)
            moved += Interlocked.Exchange(ref s_cells[i], 0);
        return Interlocked.Add(ref s_heldBase, moved);
    }

    private static bool CellsAway()
    {
        for (var i = 0; i < s_cells.Length; i += CellStride)
        {
            if (Math.Abs(Volatile.Read(ref s_cells[i])) >= CellStep)
                return true;
        }
        return false;
    }

    private static Stack<byte[]>[] CreateClasses()
    {
        var classes = new Stack<byte[]>[Classes];
        for (var i = 0; i < classes.Length; i++)
            classes[i] = new Stack<byte[]>();
        return classes;
    }
}
