using System;
using System.Collections.Generic;
using System.Threading;

namespace NetCoreServer.Transports;

/// <summary>
/// The threads that serve the event loops: each serves one loop at a time until that loop is handed on, then finishes
/// the hook it was in and comes back for the next loop that needs a thread, or waits as a spare. Threads are made when
/// no spare is waiting, up to <see cref="MaxThreads"/> in all (serving, inside a handed-off hook, or spare).
/// </summary>
/// <remarks>
/// At the cap a loop that needs a thread waits in <see cref="s_waiting"/> until one comes back (a blocked hook
/// returns): its connections stall meanwhile, as every connection of a loop did before the handoff. A hook that never
/// returns keeps its thread for good. Spares wait <see cref="SpareLinger"/> and at most <see cref="MaxSpares"/> stay;
/// waiting spares use no CPU. Handoffs are rare (a turn of a millisecond or more), so one lock guards it all.
/// </remarks>
internal static class LoopThreads
{
    /// <summary>The default of <see cref="MaxThreads"/>.</summary>
    public const int DefaultMaxThreads = 256;

    // Spares kept for the next handoffs; more exit when their hook returns.
    private const int MaxSpares = 16;

    private static readonly TimeSpan SpareLinger = TimeSpan.FromSeconds(30);

    private static readonly object s_lock = new();
    // Under s_lock.
    private static readonly Queue<EventLoop> s_waiting = new();
    private static int s_threads;
    private static int s_spares;
    private static int s_named;
    private static int s_max = DefaultMaxThreads;

    /// <summary>The most threads that serve loops at once, those inside handed-off hooks and the spares included.</summary>
    public static int MaxThreads
    {
        get => Volatile.Read(ref s_max);
        set
        {
            lock (s_lock)
                s_max = value;
            Serve(null);
        }
    }

    /// <summary>Threads alive now (serving, inside a handed-off hook, or spare).</summary>
    public static int Count
    {
        get
        {
            lock (s_lock)
                return s_threads;
        }
    }

    /// <summary>Finds <paramref name="loop"/> a thread: a spare, a new one under the cap, else the first to come back.</summary>
    public static void Serve(EventLoop? loop)
    {
        var start = 0;
        lock (s_lock)
        {
            if (loop != null)
                s_waiting.Enqueue(loop);
            // Every waiting spare is already on its way to one of the waiting loops: pulse one, or make a thread.
            if (s_spares >= s_waiting.Count && s_waiting.Count > 0)
                Monitor.Pulse(s_lock);
            else
            {
                while (s_threads < s_max && s_spares + start < s_waiting.Count)
                {
                    s_threads++;
                    start++;
                }
            }
        }
        for (; start > 0; start--)
            StartThread();
    }

    private static void StartThread()
    {
        var name = $"NetCoreServer event loop {Interlocked.Increment(ref s_named) - 1}";
        try
        {
            new Thread(Work) { IsBackground = true, Name = name }.UnsafeStart();
        }
        catch (OutOfMemoryException)
        {
            // No thread now: the loop waits for one to come back.
            lock (s_lock)
                s_threads--;
        }
    }

    private static void Work()
    {
        while (true)
        {
            EventLoop? loop;
            lock (s_lock)
            {
                while (!s_waiting.TryDequeue(out loop))
                {
                    if (s_spares >= MaxSpares || s_threads > s_max)
                    {
                        s_threads--;
                        return;
                    }
                    s_spares++;
                    var pulsed = Monitor.Wait(s_lock, SpareLinger);
                    s_spares--;
                    if (!pulsed && s_waiting.Count == 0)
                    {
                        s_threads--;
                        return;
                    }
                }
            }
            // Returns once the loop was handed on and the turn this thread was in then has ended.
            loop.Serve();
        }
    }
}
