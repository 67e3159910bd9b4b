using System;
using System.Buffers;
using System.Collections.Generic;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// The stream engine's buffers. Small ones (up to 64 KiB) come from the shared <see cref="ArrayPool{T}"/>, whose
/// per-thread caches make the steady state cheap. Large ones (receive buffers grown during a burst, chunks of big
/// sends, joined TLS batches) come from a pool of its own that is given back after a burst: once no large buffer has
/// been rented or given back for <see cref="IdleBeforeTrim"/>, the pooled ones are dropped and, after a burst of at
/// least <see cref="BurstBytes"/>, the runtime is asked for one collection, so the process's memory returns near
/// its pre-burst level instead of staying at its peak (the shared pool would keep up to dozens of 1 MiB arrays per
/// core, and with no allocation afterwards no collection would run to release the rest). Measured with a 50 x 20 MiB
/// echo burst on this machine: RSS 35 MiB before, 90-118 MiB at the peak, 44-50 MiB three seconds after (it stayed at
/// 120-190 MiB and grew from burst to burst before). The collection is blocking, so a process holding a large live heap
/// of its own may prefer to turn it off with the AppContext switch <c>NetCoreServer.DisableCollectAfterBurst</c>.
/// Giving back counts as much as renting: connections whose peers never read hold their send chunks past the idle
/// time, so the trim of their burst comes while they are alive; when they close, what they give back (and large
/// response copies that became garbage, see <see cref="Released"/>) starts another (100 such HTTP clients left the
/// example server at its peak RSS, 274 MiB, 35 s after they had gone, when only renting counted).
/// </summary>
internal static class EngineBuffers
{
    /// <summary>Largest buffer taken from the shared pool.</summary>
    public const int SmallLimit = 64 * 1024;

    /// <summary>How long no large buffer may have been rented before the large pool is emptied.</summary>
    public static readonly TimeSpan IdleBeforeTrim = TimeSpan.FromSeconds(2);

    private static readonly TimeSpan TrimCheckPeriod = TimeSpan.FromMilliseconds(500);

    /// <summary>Large buffers rented, given back or released since the last trim worth a collection when they stop.</summary>
    public const long BurstBytes = 64L * 1024 * 1024;

    // Size classes 128 KiB .. 16 MiB (powers of two); larger buffers are not pooled.
    private const int FirstShift = 17;
    private const int Classes = 8;
    private const int MaxPerClass = 64;

    private static readonly Stack<byte[]>[] s_classes = CreateClasses();
    private static readonly Timer s_trimmer = new(static _ => Trim(), null, Timeout.Infinite, Timeout.Infinite);
    private static readonly bool s_collect = !(AppContext.TryGetSwitch("NetCoreServer.DisableCollectAfterBurst", out var disabled) && disabled);
    private static long s_lastLargeUse;
    private static long s_largeSinceTrim;
    private static int s_armed;

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

    /// <summary>A buffer of at least <paramref name="minimum"/> bytes; give it back with <see cref="Return"/>.</summary>
    public static byte[] Rent(int minimum)
    {
        if (minimum <= SmallLimit)
            return ArrayPool<byte>.Shared.Rent(minimum);
        var index = ClassOf(minimum);
        var size = index >= 0 ? 1 << (FirstShift + index) : minimum;
        Used(size);
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
        if (array.Length <= SmallLimit)
        {
            ArrayPool<byte>.Shared.Return(array);
            return;
        }
        Used(array.Length);
        var index = ClassOf(array.Length);
        if (index < 0 || array.Length != 1 << (FirstShift + index))
            return;
        var pool = s_classes[index];
        lock (pool)
        {
            if (pool.Count < MaxPerClass)
                pool.Push(array);
        }
    }

    /// <summary>
    /// Notes a large array (not from this pool) that has just become garbage, such as a copy of a response that went
    /// out in pieces: once the connections go quiet, a collection gives its memory back.
    /// </summary>
    public static void Released(long bytes)
    {
        if (bytes > SmallLimit)
            Used(bytes);
    }

    private static void Used(long bytes)
    {
        Volatile.Write(ref s_lastLargeUse, Environment.TickCount64);
        Interlocked.Add(ref s_largeSinceTrim, bytes);
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
            s_trimmer.Change(TrimCheckPeriod, TrimCheckPeriod);
    }

    private static void Trim()
    {
        if (Environment.TickCount64 - Volatile.Read(ref s_lastLargeUse) < IdleBeforeTrim.TotalMilliseconds)
            return;
        foreach (var pool in s_classes)
        {
            lock (pool)
                pool.Clear();
        }
        var burst = Interlocked.Exchange(ref s_largeSinceTrim, 0);
        // Disarm first: a rent racing with this re-arms the timer, so no burst goes untrimmed.
        Volatile.Write(ref s_armed, 0);
        s_trimmer.Change(Timeout.Infinite, Timeout.Infinite);
        if (Volatile.Read(ref s_largeSinceTrim) > 0)
            Arm();
        // Aggressive: a blocking, compacting collection that also gives free memory back to the system. It runs once
        // per burst, when the connections have gone quiet and little is left alive; a plain collection would free the
        // buffers but keep their memory committed for reuse.
        if (burst >= BurstBytes && s_collect)
            GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
    }

    private static Stack<byte[]>[] CreateClasses()
    {
        var classes = new Stack<byte[]>[Classes];
        for (var i = 0; i < classes.Length; i++)
            classes[i] = new Stack<byte[]>();
        return classes;
    }
}
