using System;

namespace NetCoreServer.Transports;

/// <summary>
/// What the calling thread does for the library, in one place: whether it holds an event loop now (where a wait stalls
/// the loop's other connections), and whose read it hands to the hooks now (the send cork: what those hooks send
/// leaves once the read is handled).
/// </summary>
/// <remarks>
/// Which thread holds a loop is the loop's own turn word (<see cref="EventLoop.Holder"/>), which a handoff changes in
/// the same atomic step that takes the loop's current turn from its thread: a thread whose loop was handed on while it
/// was inside a hook answers <see cref="IsLoop"/> false from that instant, though nothing ran on it. Its delivery and
/// cork stay its own: the hook it is in still belongs to that read, and what it sends leaves when the read is handled,
/// as on the thread pool. The two thread-statics are read and written only here. Design: docs/design/engine.md
/// ("Which thread") and docs/design/event-loops.md (the handoff).
/// </remarks>
internal static class ThreadRole
{
    // The loop this thread was given last (it holds it while the loop's turn word names it).
    [ThreadStatic]
    private static EventLoop? t_loop;

    [ThreadStatic]
    private static object? t_delivering;

    /// <summary>True on the thread that holds an event loop now: a call that waits there stalls every connection of the loop.</summary>
    public static bool IsLoop => t_loop is { } loop && loop.Holder == Environment.CurrentManagedThreadId;

    /// <summary>True on the thread that holds <paramref name="loop"/> now.</summary>
    public static bool IsLoopOf(EventLoop loop) => loop.Holder == Environment.CurrentManagedThreadId;

    /// <summary>The calling thread, given <paramref name="loop"/> by <see cref="LoopThreads"/>, holds it from now on.</summary>
    public static void BecomeLoop(EventLoop loop)
    {
        t_loop = loop;
        loop.Seat(Environment.CurrentManagedThreadId);
    }

    /// <summary>The calling thread has left the loop it was given (it was handed on, and the turn it was in has ended).</summary>
    public static void LeaveLoop() => t_loop = null;

    /// <summary>
    /// Before the calling thread waits: if it holds a loop, in a turn, the loop goes to another thread now rather than when
    /// the watchdog notices. Returns true when it did; the caller then waits as on any thread.
    /// </summary>
    public static bool HandOffLoop()
    {
        if (t_loop is not { } loop)
            return false;
        var turn = loop.Turn;
        return EventLoop.HolderOf(turn) == Environment.CurrentManagedThreadId && loop.TryHandOff(turn);
    }

    /// <summary>The connection whose read the calling thread hands to its hooks now, or null.</summary>
    public static object? Delivery => t_delivering;

    /// <summary>True while the calling thread hands a read of <paramref name="connection"/> to its hooks.</summary>
    public static bool Delivers(object connection) => ReferenceEquals(t_delivering, connection);

    /// <summary>
    /// The calling thread starts handing a read of <paramref name="connection"/> to its hooks; returns the delivery it
    /// interrupts (a hook may deliver another connection's read inline), to be restored by <see cref="EndDelivery"/>.
    /// </summary>
    public static object? BeginDelivery(object connection)
    {
        var previous = t_delivering;
        t_delivering = connection;
        return previous;
    }

    /// <summary>The read begun by <see cref="BeginDelivery"/> has been handled: the interrupted delivery, if any, is current again.</summary>
    public static void EndDelivery(object? previous) => t_delivering = previous;
}
