using System;

namespace NetCoreServer.Engine;

/// <summary>
/// The cork's staging area, one per receive thread: the frames the hooks of one read send to the connection whose read
/// the thread delivers, written here without the session lock and moved into that connection's send queue in one step,
/// one block copy (<see cref="SendPipeline.SendHeld"/> when the read has been handled, or the first send, flush or
/// multicast that must not pass them). A running send loop does not take them meanwhile, and no per-frame lock is
/// shared with it. The buffer stays with the thread: a read costs no rent and no return.
/// </summary>
/// <remarks>
/// Lock discipline: <see cref="Owner"/>, <see cref="Length"/> and the buffer are guarded by this object's monitor. The
/// receive thread takes only that lock to append; whoever moves the bytes takes the owner's session lock first, then
/// this one (never the other way round). Bytes are staged only while attached to an owner, which the pipeline
/// publishes (its stage field) before it reads whether it may still send; see SendPipeline.TryStage. <see cref="Corked"/>
/// is the thread's own and takes no lock.
/// </remarks>
internal sealed class CorkStage
{
    private byte[]? _buffer;
    // The most bytes the owner may stage: the room under its limits when it attached, at most the buffer.
    private int _limit;

    /// <summary>The engine whose read this thread hands to the host now, or null (<see cref="SendCork"/>).</summary>
    public StreamSessionEngine? Corked;

    /// <summary>The pipeline the staged bytes belong to, or null when nothing is staged (or attached).</summary>
    public SendPipeline? Owner { get; private set; }

    /// <summary>Bytes staged.</summary>
    public int Length { get; private set; }

    /// <summary>
    /// Starts staging for <paramref name="owner"/>, at most <paramref name="room"/> bytes, into a buffer of the queue's
    /// chunk size kept by this thread from read to read.
    /// </summary>
    public void AttachLocked(SendPipeline owner, int chunkSize, long room)
    {
        Owner = owner;
        if (_buffer == null || _buffer.Length < chunkSize)
            _buffer = new byte[chunkSize];
        _limit = (int)Math.Min(room, _buffer.Length);
    }

    /// <summary>True when <paramref name="length"/> more bytes fit.</summary>
    public bool FitsLocked(int length) => length <= _limit - Length;

    /// <summary>The free room, for <paramref name="length"/> more bytes.</summary>
    public Span<byte> RoomLocked(int length) => _buffer.AsSpan(Length, length);

    /// <summary>Counts <paramref name="length"/> bytes written into <see cref="RoomLocked"/>.</summary>
    public void AdvanceLocked(int length) => Length += length;

    /// <summary>The staged bytes, valid until <see cref="ReleaseLocked"/>.</summary>
    public ReadOnlySpan<byte> StagedLocked => _buffer.AsSpan(0, Length);

    /// <summary>Forgets the staged bytes and the owner; the buffer stays with this thread for its next read.</summary>
    public void ReleaseLocked()
    {
        Owner = null;
        Length = 0;
    }
}
