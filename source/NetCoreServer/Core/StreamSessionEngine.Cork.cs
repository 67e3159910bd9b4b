using System;

namespace NetCoreServer.Core;

/// <summary>
/// The cork: what the receive thread queues while the hooks of one read run is sent together once they have returned.
/// </summary>
/// <remarks>
/// A read often carries many requests (HTTP pipelining, a client keeping many messages in flight), and a server answers
/// each from its receive hook. Started at once, an idle send loop would hand each answer to the transport by itself:
/// one socket write per answer, and over TLS one record (encryption, MAC, header) and one write per answer. Corked,
/// the answers wait in the queue, where small ones share a chunk, and the loop starts once when the read has been
/// handled: one write and, over TLS, one record for all of them.
/// Only the receive thread's own non-blocking sends to this connection are held, and only while less than
/// <see cref="CorkLimitLocked"/> is queued; a send from any other thread starts the loop as before (taking what is
/// held with it, in queue order), and so do a blocking send, a flush and a disconnect, which would otherwise wait for
/// bytes that wait for them. Nothing here runs a hook or waits: the order of bytes on the wire stays the order of the sends.
/// </remarks>
internal sealed partial class StreamSessionEngine
{
    /// <summary>The most bytes held back while a read is handled: a few TLS records' worth (16 KiB each).</summary>
    internal const int CorkBytes = 64 * 1024;

    // The engine whose receive loop hands a read to the host on this thread, if any: only that thread's sends are held,
    // so a per-thread mark serves every connection and costs none of them a field.
    [ThreadStatic]
    private static StreamSessionEngine? t_corked;

    /// <summary>The receive loop is about to hand a read to the host: hold what this thread queues meanwhile.</summary>
    /// <returns>The engine corked on this thread before (a hook that started another connection's loop inline), for <see cref="Uncork"/>.</returns>
    private StreamSessionEngine? Cork()
    {
        var previous = t_corked;
        t_corked = this;
        return previous;
    }

    /// <summary>The read has been handled: send what was held.</summary>
    private void Uncork(StreamSessionEngine? previous)
    {
        t_corked = previous;
        bool start;
        lock (this)
            start = StartHeldLocked();
        if (start)
            RunSendLoop();
    }

    /// <summary>Starts sending what the cork holds now (the connection is about to close: it must not be left behind).</summary>
    private void SendHeld()
    {
        bool start;
        lock (this)
            start = StartHeldLocked();
        if (start)
            RunSendLoop();
    }

    /// <summary>
    /// Starts sending what the cork holds now, from a hook of the read: a WebSocket 101 leaves in a write of its own, as
    /// NetCoreServer's server sends it, because NetCoreServer's client drops what arrives in the 101's read.
    /// </summary>
    public void SendHeldNow() => SendHeld();

    /// <summary>
    /// Starts sending what the cork holds now (for a caller about to wait for the queue, or to close): true when the
    /// caller must run the send loop.
    /// </summary>
    private bool StartHeldLocked()
    {
        if (SendRunning || !Ready || Closed || QueueEmpty)
            return false;
        SendRunning = true;
        return true;
    }

    /// <summary>True when an accepted send of the current thread is to wait for <see cref="Uncork"/> instead of starting the loop.</summary>
    private bool CorkedLocked()
    {
        if (!ReferenceEquals(t_corked, this))
            return false;
        return QueuedBytes < CorkLimitLocked();
    }

    // Under a small send limit, half of it, and under the high watermark: a hook that queues up to either must find
    // the loop already draining, as it would have without the cork.
    private long CorkLimitLocked()
    {
        long cork = CorkBytes;
        var limit = Options.SendBufferLimit;
        if (limit > 0)
            cork = Math.Min(cork, limit / 2);
        var high = Options.SendHighWatermark;
        if (high > 0)
            cork = Math.Min(cork, high);
        return cork;
    }
}
