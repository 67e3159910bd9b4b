using System;

namespace NetCoreServer.Engine;

/// <summary>
/// How a session takes in published multicast messages: asked by the multicasting thread under the log's lock whether
/// a message fits its send limit (or is skipped), and moving its <see cref="MulticastCursor"/> over the log into the
/// <see cref="SendPipeline"/>'s queue, where the bytes count as accepted sends.
/// </summary>
/// <remarks>Stateless: the cursor is the engine's, the queue and its accounting the pipeline's. Design: docs/design/multicast-log.md.</remarks>
internal static class MulticastIntake
{
    // Without a send limit a multicast still asks now and then: a limit set later applies within this many bytes.
    private const long CreditWithoutLimit = 64 * 1024;

    /// <summary>
    /// By the multicasting thread under the log's lock, for a message at [start, end) not yet published: Accepted,
    /// NotConnected (not attached), or LimitReached (this session skips it). <paramref name="credit"/>: what the multicast
    /// may use here without asking again, the room under the send limit up to an eighth of it (see MulticastFanout).
    /// </summary>
    public static SendStatus Offer(StreamSessionEngine engine, long start, long end, out long credit)
    {
        credit = 0;
        var limit = engine.Options.SendBufferLimit;
        if (limit <= 0)
        {
            credit = CreditWithoutLimit;
            return SendStatus.Accepted;
        }
        var length = end - start;
        var pipeline = engine.Sender;
        var queue = pipeline.Queue;
        ref var cursor = ref engine.Cursor;
        // A racy first look: the queue only grows under the log lock the caller holds or under the session lock, checked below.
        var used = queue.Bytes + queue.ReadSending() + (start - cursor.Position) + length;
        if (used <= limit)
        {
            credit = Math.Min(limit - used, limit >> 3);
            return SendStatus.Accepted;
        }
        using var held = engine.Enter();
        if (!cursor.IsAttached)
            return SendStatus.NotConnected;
        MoveCursor(pipeline, start, held);
        used = queue.Bytes + queue.Sending + length;
        if (used <= limit)
        {
            credit = Math.Min(limit - used, limit >> 3);
            return SendStatus.Accepted;
        }
        cursor.PassTo(end);
        return SendStatus.LimitReached;
    }

    /// <summary>By the multicasting thread under the log's lock: this session is not to receive [start, end) (a WebSocket not upgraded, or closing).</summary>
    public static void Skip(StreamSessionEngine engine, long start, long end)
    {
        var pipeline = engine.Sender;
        using var held = engine.Enter();
        ref var cursor = ref engine.Cursor;
        if (!cursor.IsAttached)
            return;
        MoveCursor(pipeline, start, held);
        cursor.PassTo(end);
    }

    /// <summary>Under the session lock: queues the published messages up to <paramref name="to"/>.</summary>
    public static void MoveCursor(SendPipeline pipeline, long to, SessionLock.Held held)
    {
        var moved = pipeline.Engine.Cursor.MoveTo(to, pipeline.Queue);
        if (moved > 0)
            pipeline.CountMoved(moved, held);
    }
}
