using System;
using System.Diagnostics;
using System.Threading;
using NetCoreServer.Buffers;

namespace NetCoreServer.Engine;

/// <summary>
/// The cork's stage, one per <see cref="SendPipeline"/>: the messages a receive hook writes itself (framed messages,
/// WebSocket frames) to the connection whose read its thread delivers go into a pooled chunk without the session lock,
/// and join the queue in one step when the read has been handled, or earlier: before any send of that thread that
/// must not pass them (a copied or blocking send, a flush, a multicast, another delivery), and before anything another
/// thread queues (which seals the stage), so messages leave in the order they were made.
/// </summary>
/// <remarks>
/// The stage has a lock of its own, <c>_gate</c>, taken by its thread for each message and by another thread only to
/// seal it (under the session lock: the order is always session lock, then gate; no user code runs inside the gate).
/// The send loop never takes it, so a hook's messages do not contend with the loop on the other core, which they do on
/// the session lock. Others see <see cref="Reserved"/> (under the session lock), the room the stage took under the send
/// limit, so the limit stays exact. Why it exists: with a thousand small messages in flight, a read carries hundreds
/// of frames. Figures and the command: docs/design/engine.md ("The stage").
/// </remarks>
internal sealed class SendStage
{
    private readonly Lock _gate = new();
    private byte[]? _chunk;
    private int _length;
    // The managed id of the thread that opened the stage, 0 when it is closed; written under the session lock.
    private int _thread;

    /// <summary>Room taken under the send limit by the open stage (0 when closed); under the session lock.</summary>
    public int Reserved { get; private set; }

    /// <summary>
    /// True when the calling thread opened the stage and it has not been closed. Without the locks only a hint for that
    /// thread (another may seal it meanwhile; <see cref="TryWrite"/> checks again inside the gate); no thread's id is 0.
    /// </summary>
    public bool IsOpenHere => Volatile.Read(ref _thread) == Environment.CurrentManagedThreadId;

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
        Reserved = (int)Math.Min(room, _chunk.Length);
        _thread = Environment.CurrentManagedThreadId;
        return true;
    }

    /// <summary>
    /// By the thread that opened the stage: writes <paramref name="message"/> after its <see cref="IMessageWriter.Commit"/>
    /// (<paramref name="committed"/> false: refused, nothing written). False when the stage has no room for it or was
    /// sealed by another thread: the caller takes the locked path, which moves what was staged into the queue first.
    /// </summary>
    public bool TryWrite<T>(scoped ref T message, int length, out bool committed)
        where T : IMessageWriter, allows ref struct
    {
        committed = false;
        lock (_gate)
        {
            if (_thread != Environment.CurrentManagedThreadId || length > Reserved - _length)
                return false;
            // Inside the gate: a close sealed in before this returns false here, not after the close.
            if (!message.Commit())
                return true;
            var writer = new QueueWriter(_chunk.AsSpan(_length, length));
            message.WriteTo(ref writer);
            Debug.Assert(writer.Written == length, "a message writes exactly its length");
            _length += length;
        }
        committed = true;
        return true;
    }

    /// <summary>
    /// Under the session lock, by any thread while open: closes the stage and hands over its chunk and the bytes written
    /// in it (another thread seals it so: it waits in the gate for a message being written).
    /// </summary>
    public byte[] Take(out int length, SessionLock.Held held)
    {
        lock (_gate)
        {
            var chunk = _chunk!;
            length = _length;
            _chunk = null;
            _length = 0;
            Reserved = 0;
            Volatile.Write(ref _thread, 0);
            return chunk;
        }
    }
}
