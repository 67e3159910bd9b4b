using System;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// One frame ready to queue: <see cref="Head"/> then <see cref="Body"/>, as one unit. A client frame's body is still
/// clear here (<see cref="IsMasked"/>): it is masked while copied to where it is sent from (<see cref="WriteTo"/>, the
/// send queue), so the user's payload is read once and written once, never changed. Valid until the writer prepares
/// the next frame; the body may be the caller's own payload.
/// </summary>
internal readonly ref struct WsFrame
{
    private const int MaskPieceSize = 256;

    public WsFrame(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool masked, uint maskKey)
    {
        Head = head;
        Body = body;
        IsMasked = masked;
        MaskKey = maskKey;
    }

    /// <summary>The frame header (with the mask key when masked).</summary>
    public ReadOnlySpan<byte> Head { get; }

    /// <summary>The payload, not masked yet.</summary>
    public ReadOnlySpan<byte> Body { get; }

    /// <summary>True for a client frame: <see cref="Body"/> must be masked with <see cref="MaskKey"/> on its way out.</summary>
    public bool IsMasked { get; }

    public uint MaskKey { get; }

    /// <summary>The size on the wire.</summary>
    public int Length => Head.Length + Body.Length;

    /// <summary>Appends the frame as it goes on the wire to the send queue (see <see cref="WsQueuedFrame"/>).</summary>
    public void WriteTo(ref QueueWriter queue)
    {
        queue.Write(Head);
        if (!IsMasked)
        {
            queue.Write(Body);
            return;
        }
        if (queue.TryGetSpan(Body.Length, out var room))
        {
            WsMask.Apply(Body, room, MaskKey);
            queue.Advance(Body.Length);
            return;
        }
        // Into the queue through a small stack piece until it can hand out its own memory (docs/design/websocket-send.md).
        Span<byte> piece = stackalloc byte[MaskPieceSize];
        for (var offset = 0; offset < Body.Length; offset += MaskPieceSize)
        {
            var part = Body.Slice(offset, Math.Min(MaskPieceSize, Body.Length - offset));
            WsMask.Apply(part, piece, MaskKey, offset);
            queue.Write(piece[..part.Length]);
        }
    }

    /// <summary>Writes the frame as it goes on the wire (the body masked when <see cref="IsMasked"/>) into <paramref name="destination"/>.</summary>
    public void CopyTo(Span<byte> destination)
    {
        Head.CopyTo(destination);
        var body = destination.Slice(Head.Length, Body.Length);
        if (IsMasked)
            WsMask.Apply(Body, body, MaskKey);
        else
            Body.CopyTo(body);
    }
}
