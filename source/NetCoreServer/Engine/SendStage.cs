using System;
using System.Diagnostics;
using System.Threading;
using NetCoreServer.Buffers;

namespace NetCoreServer.Engine;

/// <summary>
/// The cork's stage, one per <see cref="SendPipeline"/>: the messages a receive hook writes itself (framed messages,
/// WebSocket frames) to the connection whose read its thread delivers go into a pooled chunk without the session lock,
/// and join the queue in one step when the read has been handled, or earlier: before any send of that thread that
/// must not pass them (a copied or blocking send, a flush, a multicast, another delivery). Another thread that queues
/// anything meanwhile first moves in what was staged so far (<see cref="Seal"/>), so messages leave in the order made.
/// </summary>
/// <remarks>
/// Ownership is the rule: <see cref="TryOpen"/> and <see cref="Take"/> run under the session lock, by the stage's
/// thread, and only that thread writes the chunk. It publishes each message by a release write of <c>_length</c>; a
/// sealing thread (under the session lock) copies the published bytes it has not taken yet and never touches the rest.
/// A message another thread can refuse (<see cref="IMessageWriter.MayBeRefused"/>: a WebSocket data frame once a close
/// is sent) is checked and written inside <c>_gate</c>, which a seal also takes: it is either in the seal's copy, so
/// before the close, or it sees the close and is refused. Others see <see cref="Reserved"/> (under the session lock),
/// the room the stage holds under the send limit, so the limit stays exact. Why it exists: with a thousand small
/// messages in flight a read carries hundreds of messages, and a lock per message contends with the send loop on the
/// other core. Figures and the command: docs/design/engine.md ("The stage").
/// </remarks>
internal sealed class SendStage
{
    private readonly Lock _gate = new();
    private byte[]? _chunk;
    // Bytes written and published by the stage's thread (release write, acquire read by a seal).
    private int _length;
    // Bytes of the chunk already moved into the queue by seals; under the session lock.
    private int _taken;
    // Room taken under the cork and the send limit, at most the chunk; the stage's thread reads it without the lock.
    private int _room;
    // The managed id of the thread that opened the stage, 0 when it is closed; written under the session lock, by that thread.
    private int _thread;

    /// <summary>Room held under the send limit by the open stage and not yet moved into the queue (0 when closed); under the session lock.</summary>
    public int Reserved => _room - _taken;

    /// <summary>
    /// True when the calling thread opened the stage and has not closed it. Sound without the lock: only that thread
    /// writes its own id here and clears it, and no thread's id is 0.
    /// </summary>
    public bool IsOpenHere => _thread == Environment.CurrentManagedThreadId;

    /// <summary>Under the session lock: some thread's stage is open.</summary>
    public bool IsOpen => _thread != 0;

    /// <summary>
    /// Under the session lock, when closed: opens the stage for the calling thread with the room the cork and the send
    /// limit leave beside <paramref name="queued"/> and <paramref name="sending"/> bytes; false when <paramref name="length"/> does not fit.
    /// </summary>
    public bool TryOpen(int length, long queued, long sending, EngineOptions options, SessionLock.Held held)
    {
        var room = SendCork.LimitFor(options) - queued;
        var limit = options.SendBufferLimit;
        if (limit > 0)
            room = Math.Min(room, limit - queued - sending);
        if (room < length)
            return false;
        // A chunk like the queue's, or one message's worth when that is larger.
        var size = Math.Max(length, (int)Math.Min(room, Math.Max(options.SendBufferSize, SendQueue.MinChunkSize)));
        _chunk = EngineBuffers.Rent(size);
        _length = 0;
        _taken = 0;
        _room = (int)Math.Min(room, _chunk.Length);
        _thread = Environment.CurrentManagedThreadId;
        return true;
    }

    /// <summary>
    /// By the thread that opened the stage: writes <paramref name="message"/> after its <see cref="IMessageWriter.Commit"/>
    /// (<paramref name="committed"/> false: refused, nothing written). False when it does not fit: the caller takes the
    /// locked path, which moves what was staged into the queue first.
    /// </summary>
    public bool TryWrite<T>(scoped ref T message, int length, out bool committed)
        where T : IMessageWriter, allows ref struct
    {
        committed = false;
        if (length > _room - _length)
            return false;
        if (!message.MayBeRefused)
        {
            committed = Commit(ref message, length);
            return true;
        }
        lock (_gate)
            committed = Commit(ref message, length);
        return true;
    }

    private bool Commit<T>(scoped ref T message, int length)
        where T : IMessageWriter, allows ref struct
    {
        if (!message.Commit())
            return false;
        var writer = new QueueWriter(_chunk.AsSpan(_length, length));
        message.WriteTo(ref writer);
        Debug.Assert(writer.Written == length, "a message writes exactly its length");
        Volatile.Write(ref _length, _length + length);
        return true;
    }

    /// <summary>
    /// Under the session lock, by a thread other than the stage's, before it queues anything: appends to
    /// <paramref name="queue"/> the messages published and not taken yet; the stage stays open. Returns their bytes.
    /// </summary>
    public int Seal(SendQueue queue, int chunkSize, SessionLock.Held held)
    {
        int from, to;
        lock (_gate)
        {
            from = _taken;
            to = Volatile.Read(ref _length);
            _taken = to;
        }
        if (to > from)
            queue.Append(_chunk.AsSpan(from, to - from), chunkSize);
        return to - from;
    }

    /// <summary>
    /// Under the session lock, by the thread that opened it: closes the stage and appends to <paramref name="queue"/>
    /// what was not taken yet (the chunk by reference, when no seal took a part), unless <paramref name="drop"/>.
    /// Returns the bytes appended.
    /// </summary>
    public int Take(SendQueue queue, int chunkSize, bool drop, SessionLock.Held held)
    {
        var chunk = _chunk!;
        var from = _taken;
        var count = drop ? 0 : _length - from;
        _chunk = null;
        _length = 0;
        _taken = 0;
        _room = 0;
        _thread = 0;
        if (count > 0 && from == 0)
        {
            queue.AppendOwned(chunk, count);
            return count;
        }
        if (count > 0)
            queue.Append(chunk.AsSpan(from, count), chunkSize);
        EngineBuffers.Return(chunk);
        return count;
    }
}
