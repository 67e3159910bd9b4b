using System;

namespace NetCoreServer.Engine;

/// <summary>
/// The cork: what the receive thread queues while the hooks of one read run is sent together once they have returned
/// (pipelined HTTP answers, WebSocket replies): one socket write and, over TLS, one record instead of one per answer.
/// </summary>
/// <remarks>
/// Only the receive thread's own non-blocking sends to the delivering connection are held, and only below
/// <see cref="LimitFor"/>; a send from another thread, a blocking send, a flush and a disconnect start the send loop
/// (taking what is held with it, in queue order). Figures: docs/design/engine.md.
/// </remarks>
internal static class SendCork
{
    /// <summary>The most bytes held back while a read is handled: a few TLS records' worth (16 KiB each).</summary>
    internal const int CorkBytes = 64 * 1024;

    // This thread's cork: the engine whose read it hands to the host, and the staging area (one thread-static read per frame).
    [ThreadStatic]
    private static CorkStage? t_stage;

    /// <summary>A read is about to be handed to the host; returns the engine corked before (a hook may deliver another's read inline).</summary>
    public static StreamSessionEngine? Enter(StreamSessionEngine engine)
    {
        var stage = t_stage ??= new CorkStage();
        var previous = stage.Corked;
        stage.Corked = engine;
        return previous;
    }

    /// <summary>The read has been handled: send what was held.</summary>
    public static void Exit(StreamSessionEngine engine, StreamSessionEngine? previous)
    {
        t_stage!.Corked = previous;
        engine.SenderIfAny?.SendHeld();
    }

    /// <summary>This thread's staging area when it delivers a read of <paramref name="engine"/>, else null.</summary>
    public static CorkStage? StageFor(StreamSessionEngine engine)
    {
        var stage = t_stage;
        return stage != null && ReferenceEquals(stage.Corked, engine) ? stage : null;
    }

    /// <summary>
    /// Before a multicast: what this thread staged for a connection goes into its queue first, so the multicast follows
    /// the frames its hook sent before. Stages of other threads are not waited for: those sends and the multicast are concurrent.
    /// </summary>
    public static void Settle()
    {
        var stage = t_stage;
        if (stage != null && stage.Owner is { } owner)
            owner.Settle();
    }

    /// <summary>True on the thread delivering a read of <paramref name="engine"/>.</summary>
    public static bool Holds(StreamSessionEngine engine) => StageFor(engine) != null;

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
