using System;

namespace NetCoreServer.Transports;

/// <summary>
/// What the calling thread does for the library, in one place: whether it is an event loop's thread (where nothing may
/// wait), and whose read it hands to the hooks now (the send cork: what those hooks send leaves once the read is handled).
/// </summary>
/// <remarks>
/// Two thread-statics, read and written only here. The event-loop handoff (a loop thread that blocks inside a hook is
/// replaced, and stops being the loop) changes this type alone: <see cref="IsLoop"/> then answers for the thread that
/// is the loop now, and a handed-off delivery ends its cork. Design: docs/design/engine.md ("Which thread").
/// </remarks>
internal static class ThreadRole
{
    [ThreadStatic]
    private static object? t_loop;

    [ThreadStatic]
    private static object? t_delivering;

    /// <summary>True on an event loop's thread: a call that waits there stalls every connection of the loop.</summary>
    public static bool IsLoop => t_loop != null;

    /// <summary>True on the thread of <paramref name="loop"/>.</summary>
    public static bool IsLoopOf(object loop) => ReferenceEquals(t_loop, loop);

    /// <summary>Marks the calling thread as <paramref name="loop"/>'s for the rest of its life (the loop's own thread, once).</summary>
    public static void BecomeLoop(object loop) => t_loop = loop;

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
