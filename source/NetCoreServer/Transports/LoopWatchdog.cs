using System;
using System.Threading;

namespace NetCoreServer.Transports;

/// <summary>
/// One thread for the process that hands on an event loop whose current turn (a completion and the hooks it runs) has
/// lasted longer than <see cref="Threshold"/>: a hook that blocks then stalls only its own connection. It looks every
/// threshold, so a turn is handed on after one to two thresholds; it sleeps while no loop runs anything (no idle CPU),
/// woken by the first loop that comes out of <c>epoll_wait</c>.
/// </summary>
/// <remarks>
/// A turn is seen as long when two looks one period apart find the same turn word (<see cref="EventLoop.Turn"/>) in a
/// turn: nothing is timed on the loops, which only count. A look that spans a garbage collection hands nothing on (the
/// loop was paused, not blocked): <see cref="GC.GetTotalPauseDuration"/> changed. A turn that is merely busy (a TLS
/// handshake, a deflate of a big message, a thread the scheduler preempted) is handed on like a blocked one: that costs
/// one thread switch, and the loop's other connections get the time meanwhile. Sleeping: the watchdog raises
/// <see cref="s_asleep"/>, then looks again; a loop counts its pass, then reads the flag: both with full fences, so
/// either the look sees the pass or the loop sees the flag and wakes it.
/// </remarks>
internal static class LoopWatchdog
{
    /// <summary>The default of <see cref="Threshold"/>.</summary>
    public static readonly TimeSpan DefaultThreshold = TimeSpan.FromMilliseconds(1);

    private static readonly object s_lock = new();
    private static int s_started;
    private static int s_asleep;
    private static bool s_off;
    private static long s_thresholdTicks = DefaultThreshold.Ticks;

    // Looks that find a turn's thread runnable before the loop is handed on anyway (a hook that computes, not waits).
    private const int RunnableLooks = 8;

    // The watchdog thread's own: what each loop's turn word and pass count were at the last look, and how many looks
    // in a row found that turn.
    private static long[] s_seenTurns = [];
    private static long[] s_seenPasses = [];
    private static int[] s_sameLooks = [];

    /// <summary>How long a turn may run before its loop is handed on; <see cref="Timeout.InfiniteTimeSpan"/> for never.</summary>
    public static TimeSpan Threshold
    {
        get => TimeSpan.FromTicks(Volatile.Read(ref s_thresholdTicks));
        set
        {
            Volatile.Write(ref s_thresholdTicks, value.Ticks);
            lock (s_lock)
                Monitor.PulseAll(s_lock);
        }
    }

    /// <summary>True while the watchdog sleeps: no loop has run anything since its last look, or it is switched off.</summary>
    public static bool IsAsleep => Volatile.Read(ref s_asleep) != 0 || Volatile.Read(ref s_off);

    /// <summary>Starts the watchdog once (with the first loop).</summary>
    public static void Start()
    {
        if (Interlocked.Exchange(ref s_started, 1) == 0)
            new Thread(Run) { IsBackground = true, Name = "NetCoreServer event loop watchdog" }.UnsafeStart();
    }

    /// <summary>From a loop that has just come out of <c>epoll_wait</c> (after counting the pass, a full fence): wakes a sleeping watchdog.</summary>
    public static void Nudge()
    {
        if (Volatile.Read(ref s_asleep) != 0)
            WakeUp();
    }

    private static void WakeUp()
    {
        if (Interlocked.Exchange(ref s_asleep, 0) == 0)
            return;
        lock (s_lock)
            Monitor.PulseAll(s_lock);
    }

    private static void Run()
    {
        var paused = GC.GetTotalPauseDuration();
        while (true)
        {
            var threshold = Threshold;
            if (threshold == Timeout.InfiniteTimeSpan)
            {
                SleepWhileOff();
                continue;
            }
            // Thread.Sleep counts whole milliseconds: a shorter threshold would spin.
            Thread.Sleep(threshold < TimeSpan.FromMilliseconds(1) ? TimeSpan.FromMilliseconds(1) : threshold);
            var loops = EventLoop.All;
            Fit(loops.Length);
            var now = GC.GetTotalPauseDuration();
            var collected = now != paused;
            paused = now;
            if (!Look(loops, handOff: !collected))
                Doze(loops);
        }
    }

    /// <summary>Compares each loop with the last look, handing on a loop still in the same turn; true when any loop ran something.</summary>
    private static bool Look(EventLoop[] loops, bool handOff)
    {
        var active = false;
        for (var i = 0; i < loops.Length; i++)
        {
            var loop = loops[i];
            var passes = loop.Passes;
            var turn = loop.Turn;
            var same = turn == s_seenTurns[i];
            s_sameLooks[i] = same ? Math.Min(s_sameLooks[i] + 1, RunnableLooks) : 0;
            if (EventLoop.InTurn(turn))
            {
                active = true;
                if (handOff && same && (s_sameLooks[i] >= RunnableLooks || !KernelThreads.IsRunnable(loop.HolderTid)))
                    loop.TryHandOff(turn);
            }
            else if (turn != s_seenTurns[i] || passes != s_seenPasses[i])
            {
                active = true;
            }
            s_seenTurns[i] = turn;
            s_seenPasses[i] = passes;
        }
        return active;
    }

    /// <summary>Sleeps until a loop comes out of <c>epoll_wait</c> (or the threshold changes).</summary>
    private static void Doze(EventLoop[] loops)
    {
        Interlocked.Exchange(ref s_asleep, 1);
        // A loop that came out between the last look and the flag has not seen the flag: look once more after it.
        if (Look(loops, handOff: false))
        {
            Volatile.Write(ref s_asleep, 0);
            return;
        }
        lock (s_lock)
        {
            while (Volatile.Read(ref s_asleep) != 0 && Threshold != Timeout.InfiniteTimeSpan)
                Monitor.Wait(s_lock);
        }
        Volatile.Write(ref s_asleep, 0);
    }

    private static void SleepWhileOff()
    {
        Volatile.Write(ref s_off, true);
        lock (s_lock)
        {
            while (Threshold == Timeout.InfiniteTimeSpan)
                Monitor.Wait(s_lock);
        }
        Volatile.Write(ref s_off, false);
    }

    private static void Fit(int count)
    {
        if (s_seenTurns.Length == count)
            return;
        Array.Resize(ref s_seenTurns, count);
        Array.Resize(ref s_seenPasses, count);
        Array.Resize(ref s_sameLooks, count);
    }
}
