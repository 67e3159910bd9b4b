using System;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

/// <summary>
/// The cork: while a thread hands a read of a connection to its hooks, the non-blocking sends those hooks make to that
/// connection wait in its send queue (up to <see cref="LimitFor"/>) and leave together once the read has been handled:
/// pipelined HTTP answers, WebSocket replies, framed echoes go out in one socket write and, over TLS, one record.
/// </summary>
/// <remarks>
/// Only which connection the thread delivers is per thread (kept by <see cref="ThreadRole"/>); the held bytes are the
/// pipeline's own: its queue, and its <see cref="SendStage"/> for messages that write themselves. Re-entry is safe: a
/// hook that delivers another connection's read inline first moves this one's stage into its queue, corks the other
/// until its read is handled, then this one again. A send from another thread, a blocking send, a flush and a
/// disconnect start the send loop, taking what is held with it, in queue order. Figures: engine.md.
/// </remarks>
internal static class SendCork
{
    /// <summary>The most bytes held back while a read is handled: a few TLS records' worth (16 KiB each).</summary>
    internal const int CorkBytes = 64 * 1024;

    /// <summary>A read of <paramref name="engine"/> is about to be handed to its hooks; returns the delivery it interrupts.</summary>
    public static object? Enter(StreamSessionEngine engine)
    {
        var previous = ThreadRole.BeginDelivery(engine);
        // A thread stages for one connection at a time: the interrupted one's messages join its queue, still held.
        (previous as StreamSessionEngine)?.SenderIfAny?.SettleStage();
        return previous;
    }

    /// <summary>The read has been handled: the interrupted delivery is current again, and what was held starts.</summary>
    public static void Exit(StreamSessionEngine engine, object? previous)
    {
        ThreadRole.EndDelivery(previous);
        engine.SenderIfAny?.SendHeld();
    }

    /// <summary>Before a multicast: what this thread staged comes first, as the hook sent it before the multicast.</summary>
    public static void SettleThisThread() => (ThreadRole.Delivery as StreamSessionEngine)?.SenderIfAny?.SettleStage();

    /// <summary>True on the thread delivering a read of <paramref name="engine"/>.</summary>
    public static bool Holds(StreamSessionEngine engine) => ThreadRole.Delivers(engine);

    /// <summary>
    /// Under a small send limit half of it, and under the high watermark: a hook that queues up to either finds the loop
    /// already draining, as it would without the cork.
    /// </summary>
    public static long LimitFor(EngineOptions options)
    {
        long cork = CorkBytes;
        var limit = options.SendBufferLimit;
        if (limit > 0)
            cork = Math.Min(cork, limit / 2);
        var high = options.SendHighWatermark;
        if (high > 0)
            cork = Math.Min(cork, high);
        return cork;
    }
}
