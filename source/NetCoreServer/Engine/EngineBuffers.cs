using System;
using System.Buffers;
using System.Collections.Generic;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// The stream engine's buffers: small ones (up to 64 KiB) from the shared <see cref="ArrayPool{T}"/>, large ones from a
/// pool of its own that is emptied after a burst (and, after a large one, one collection is asked for), so a process
/// returns near its pre-burst memory. The AppContext switch <c>NetCoreServer.DisableCollectAfterBurst</c> turns the
/// collection off. Figures: docs/design/engine-buffers.md.
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
