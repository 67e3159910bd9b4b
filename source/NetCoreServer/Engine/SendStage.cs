using System;
using System.Diagnostics;
using NetCoreServer.Buffers;

namespace NetCoreServer.Engine;

/// <summary>
/// The cork's stage, one per <see cref="SendPipeline"/>: the messages a receive hook writes itself and that no other
/// thread can refuse (<see cref="IMessageWriter.MayStage"/>: framed messages) to the connection whose read its thread delivers go into a pooled chunk without the session lock,
/// and join the queue in one step when the read has been handled, or earlier, before any send of that thread that
/// must not pass them (a copied or blocking send, a flush, a multicast, another delivery).
/// </summary>
/// <remarks>
/// Ownership is the rule, not a lock: <see cref="TryOpen"/> and <see cref="Take"/> run under the session lock, and between
/// them only the thread that opened the stage touches the chunk, so writing a message takes no lock at all. Others see
/// only <see cref="Reserved"/> (under the lock), the room the stage took under the send limit, so the limit stays exact.
/// Why it exists: with a thousand small messages in flight, a read carries hundreds of frames, and a lock per frame
/// contends with the send loop on the other core. Figures and the command: docs/design/engine.md ("The stage").
/// </remarks>
internal sealed class SendStage
{
    private byte[]? _chunk;
    private int _length;
    // The managed id of the thread that opened the stage, 0 when it is closed; written under the session lock.
    private int _thread;

    /// <summary>Room taken under the send limit by the open stage (0 when closed); under the session lock.</summary>
    public int Reserved { get; private set; }

    /// <summary>
    /// True when the calling thread opened the stage and has not closed it. Sound without the lock: only that thread
    /// writes its own id here and clears it, and no thread's id is 0.
    /// </summary>
    public bool IsOpenHere => _thread == Environment.CurrentManagedThreadId;

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

    /// <summary>By the thread that opened the stage: true when <paramref name="length"/> more bytes fit (else the caller takes the locked path, which moves the stage into the queue first).</summary>
    public bool HasRoom(int length) => length <= Reserved - _length;

    /// <summary>By the thread that opened the stage, after <see cref="HasRoom"/>: writes <paramref name="message"/>.</summary>
    public void Write<T>(scoped ref T message, int length)
        where T : IMessageWriter, allows ref struct
    {
        var writer = new QueueWriter(_chunk.AsSpan(_length, length));
        message.WriteTo(ref writer);
        Debug.Assert(writer.Written == length, "a message writes exactly its length");
        _length += length;
    }

    /// <summary>Under the session lock, by the thread that opened it: closes the stage and hands over its chunk and the bytes written in it.</summary>
    public byte[] Take(out int length, SessionLock.Held held)
    {
        var chunk = _chunk!;
        length = _length;
        _chunk = null;
        _length = 0;
        Reserved = 0;
        _thread = 0;
        return chunk;
    }
}
