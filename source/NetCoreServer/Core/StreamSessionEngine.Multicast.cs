using System;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// The session's place in its server's <see cref="MulticastLog"/>. From Connected until the disconnect begins the
/// session is attached: every message the server publishes is the session's to send, and it is moved into the send
/// queue (as segments over the log's blocks, no copy) before anything is taken from or added to that queue, which
/// keeps multicast and the session's own sends in the order they were made. The send limit is checked by the
/// multicasting thread before publication, so a message that does not fit is skipped for this session alone.
/// </summary>
internal sealed partial class StreamSessionEngine
{
    private LogChunk? _logChunk;
    private long _logCursor;

    /// <summary>Joins the log at its end, so the session gets what is multicast from now on (from OnConnected on).</summary>
    private void AttachLog(MulticastLog? log)
    {
        if (log == null)
            return;
        lock (log.Lock)
        {
            lock (this)
            {
                if (State != SessionState.Connected || LogAttached)
                    return;
                _logChunk = log.Join(out _logCursor);
                LogAttached = true;
            }
        }
    }

    /// <summary>The disconnect begins: what was published so far was accepted and is queued; nothing later is.</summary>
    private void DetachLogLocked()
    {
        if (!LogAttached)
            return;
        MaterializeLocked();
        LogAttached = false;
        _logChunk!.Release();
        _logChunk = null;
    }

    /// <summary>Queues every published message this session has not queued yet.</summary>
    private void MaterializeLocked()
    {
        if (LogAttached)
            MaterializeToLocked(_logChunk!.Log.End);
    }

    private void MaterializeToLocked(long to)
    {
        var position = _logCursor;
        if (position >= to)
            return;
        var chunk = _logChunk!;
        var length = to - position;
        while (position < to)
        {
            var chunkEnd = chunk.Start + LogChunk.Size;
            if (position == chunkEnd)
            {
                chunk = Advance(chunk);
                continue;
            }
            var n = (int)(Math.Min(to, chunkEnd) - position);
            Queue.AppendLog(chunk, (int)(position - chunk.Start), n);
            position += n;
        }
        _logChunk = chunk;
        Volatile.Write(ref _logCursor, position);
        Queue.AcceptedTotal += length;
        RaiseWatermarkLocked();
    }

    private static LogChunk Advance(LogChunk chunk)
    {
        var next = chunk.Next!;
        next.AddReference();
        chunk.Release();
        return next;
    }

    /// <summary>
    /// Called by the multicasting thread under the log's lock, for a message written at [start, end) and not yet
    /// published: Accepted, NotConnected (not attached), or LimitReached, in which case this session skips it.
    /// </summary>
    public SendStatus OfferLogged(long start, long end)
    {
        if (!LogAttached)
            return SendStatus.NotConnected;
        var limit = Options.SendBufferLimit;
        if (limit <= 0)
            return SendStatus.Accepted;
        var length = end - start;
        // A racy first look: the queue only grows under the log lock the caller holds or under the engine's lock, checked below.
        if (QueuedBytes + (Volatile.Read(ref _queue)?.ReadSending() ?? 0) + (start - Volatile.Read(ref _logCursor)) + length <= limit)
            return SendStatus.Accepted;
        lock (this)
        {
            if (!LogAttached)
                return SendStatus.NotConnected;
            MaterializeToLocked(start);
            if (QueuedBytes + SendingLocked + length <= limit)
                return SendStatus.Accepted;
            PassLocked(end);
            return SendStatus.LimitReached;
        }
    }

    /// <summary>
    /// Called by the multicasting thread under the log's lock for a message written at [start, end) that this session
    /// is not to receive (a WebSocket session that has not upgraded, or has sent its close frame): its place in the log
    /// moves past the message.
    /// </summary>
    public void SkipLogged(long start, long end)
    {
        if (!LogAttached)
            return;
        lock (this)
        {
            if (!LogAttached)
                return;
            MaterializeToLocked(start);
            PassLocked(end);
        }
    }

    /// <summary>Moves this session's place in the log to <paramref name="end"/> without queueing what it passes.</summary>
    private void PassLocked(long end)
    {
        var chunk = _logChunk!;
        while (end > chunk.Start + LogChunk.Size)
            chunk = Advance(chunk);
        _logChunk = chunk;
        Volatile.Write(ref _logCursor, end);
    }

    /// <summary>
    /// Called after a publication (and a full fence): starts an idle send loop on the thread pool, not inline, so the
    /// multicasting thread does not make one send per message per session; a running loop takes the message itself.
    /// </summary>
    public void WakeForLog()
    {
        if (!LogAttached || SendRunning)
            return;
        lock (this)
        {
            if (!LogAttached || SendRunning || !Ready || Closed)
                return;
            MaterializeLocked();
            if (QueueEmpty)
                return;
            SendRunning = true;
            // Until the pool runs it the loop waits as a pending send does: a close need not wait for it (see Park).
            SendParked = true;
        }
        NotifyWritability();
        ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);
    }
}
