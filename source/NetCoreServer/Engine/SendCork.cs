using System;
using System.Diagnostics;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// The cork, one per receive thread: what the hooks of one read send to the connection whose read the thread delivers
/// goes out together once they have returned (pipelined HTTP answers, WebSocket replies), one socket write and, over
/// TLS, one record instead of one per answer. Copied sends wait in the connection's queue, below <see cref="LimitFor"/>;
/// messages that write themselves (WebSocket frames) are staged here without the session lock and moved into the queue
/// in one block copy when the read has been handled, or by the first send, flush or multicast that must not pass them.
/// </summary>
/// <remarks>
/// Only the receive thread's own non-blocking sends to the delivering connection are held; a send from another thread,
/// a blocking send, a flush and a disconnect start the send loop, taking what is held with it, in queue order.
/// Lock discipline: <see cref="Owner"/>, <see cref="Length"/> and the buffer are guarded by the cork's lock. The
/// receive thread takes only that lock to stage; whoever moves the bytes holds the owner's session lock first, then
/// this one (never the other way round). The corked engine is the thread's own and takes no lock. Figures:
/// docs/design/engine.md, docs/design/websocket-send.md.
/// </remarks>
internal sealed class SendCork
{
    /// <summary>The most bytes held back while a read is handled: a few TLS records' worth (16 KiB each).</summary>
    internal const int CorkBytes = 64 * 1024;

    // This thread's cork, made on its first read: one thread-static read per frame.
    [ThreadStatic]
    private static SendCork? t_cork;

    // The cork's lock, 1 while held: taken with one compare-and-swap and released with a plain store, about 2 ns
    // against 7-10 for a Lock, once per staged message (issue 24). It is held only while bytes are copied, never across
    // a hook, so a mover waits a copy at most. (A monitor once contended kept its sync block: a runtime call per message.)
    private int _held;

    // The engine whose read this thread hands to the host now, and a StackMark taken when it started.
    private StreamSessionEngine? _corked;
    private nuint _mark;
    private byte[]? _buffer;
    // The most bytes the owner may stage: the room under its limits when it attached, at most the buffer.
    private int _limit;

    /// <summary>The pipeline the staged bytes belong to, or null when nothing is staged.</summary>
    public SendPipeline? Owner { get; private set; }

    /// <summary>Bytes staged.</summary>
    public int Length { get; private set; }

    /// <summary>A read is about to be handed to the host; returns the engine corked before (a hook may deliver another's read inline).</summary>
    public static StreamSessionEngine? Enter(StreamSessionEngine engine)
    {
        var cork = t_cork ??= new SendCork();
        var previous = cork._corked;
        cork._corked = engine;
        cork._mark = StackMark.Take();
        return previous;
    }

    /// <summary>The read has been handled: send what was held.</summary>
    public static void Exit(StreamSessionEngine engine, StreamSessionEngine? previous)
    {
        t_cork!._corked = previous;
        engine.SenderIfAny?.SendHeld();
    }

    /// <summary>
    /// This thread's cork when it delivers a read of <paramref name="engine"/>, else null. <paramref name="staged"/>, the
    /// cork that holds bytes for the engine if any, answers without the thread-static when this thread is its owner (a
    /// hook's second and later messages of a read). After a nested delivery the mark is deeper than the outer hook and
    /// the thread is asked, which is slower, not wrong.
    /// </summary>
    public static SendCork? For(StreamSessionEngine engine, SendCork? staged = null)
    {
        if (staged != null && ReferenceEquals(staged._corked, engine) && StackMark.IsAbove(staged._mark))
            return staged;
        var cork = t_cork;
        return cork != null && ReferenceEquals(cork._corked, engine) ? cork : null;
    }

    /// <summary>True on the thread delivering a read of <paramref name="engine"/>.</summary>
    public static bool Holds(StreamSessionEngine engine) => For(engine) != null;

    /// <summary>
    /// Before a multicast: what this thread staged for a connection goes into its queue first, so the multicast follows
    /// the frames its hook sent before. Stages of other threads are not waited for: those sends and the multicast are concurrent.
    /// </summary>
    public static void SettleThisThread()
    {
        if (t_cork?.Owner is { } owner)
            owner.Settle();
    }

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

    /// <summary>
    /// Stages <paramref name="message"/> for <paramref name="pipeline"/> without its session lock: false when it must take
    /// the locked path (the stage is another connection's or full, or the connection no longer sends), else true with
    /// its outcome in <paramref name="status"/> (an out value, not a nullable: the JIT called the nullable's constructor).
    /// </summary>
    public bool TryStage<T>(SendPipeline pipeline, scoped ref T message, int length, out SendStatus status)
        where T : IMessageWriter, allows ref struct
    {
        status = SendStatus.Accepted;
        Take();
        try
        {
            if (Owner != pipeline)
            {
                if (Owner != null)
                    return false;
                var room = pipeline.StageRoom(out var chunkSize);
                if (room <= 0)
                    return false;
                Owner = pipeline;
                if (_buffer == null || _buffer.Length < chunkSize)
                    _buffer = new byte[chunkSize];
                _limit = (int)Math.Min(room, _buffer.Length);
                // Published before the checks below: a close or a disconnect either sees the stage and moves it, or is seen by them.
                pipeline.PublishStage(this);
            }
            if (length > _limit - Length || !pipeline.AcceptsSends)
                return false;
            if (!message.Commit())
            {
                status = SendStatus.NotConnected;
                return true;
            }
            var writer = new QueueWriter(_buffer.AsSpan(Length, length));
            message.WriteTo(ref writer);
            Debug.Assert(writer.Written == length, "a message writes exactly its length");
            Length += length;
        }
        finally
        {
            Release();
        }
        return true;
    }

    /// <summary>
    /// Under <paramref name="owner"/>'s session lock: moves what is staged for it to the end of <paramref name="queue"/>
    /// (dropped when null), clears the owner's <paramref name="published"/> stage and frees this one; returns the bytes moved.
    /// </summary>
    public int MoveTo(SendPipeline owner, ref SendCork? published, SendQueue? queue, int chunkSize)
    {
        Take();
        try
        {
            Volatile.Write(ref published, null);
            if (Owner != owner)
                return 0;
            var moved = queue == null ? 0 : Length;
            if (moved > 0)
                queue!.Append(_buffer.AsSpan(0, moved), chunkSize);
            // The buffer stays with this thread for its next read.
            Owner = null;
            Length = 0;
            return moved;
        }
        finally
        {
            Release();
        }
    }

    private void Take()
    {
        if (Interlocked.CompareExchange(ref _held, 1, 0) != 0)
            TakeContended();
    }

    private void Release() => Volatile.Write(ref _held, 0);

    // The holder is copying (or was preempted while copying): spin, then yield, until it lets go.
    private void TakeContended()
    {
        var spin = new SpinWait();
        do
            spin.SpinOnce();
        while (Volatile.Read(ref _held) != 0 || Interlocked.CompareExchange(ref _held, 1, 0) != 0);
    }
}
