using System;

namespace NetCoreServer.WebSockets;

/// <summary>
/// One frame ready to queue: <see cref="Head"/> then <see cref="Body"/>, as one unit. For a server frame the body goes
/// out as it is (queue both, e.g. <c>Enqueue(head, body)</c>, which copies each once). A client frame is masked
/// (<see cref="IsMasked"/>): the body here is still clear, and the mask is applied while it is copied to where it is
/// sent from, with <see cref="CopyTo"/> (into a pooled array handed over by reference, or straight into the send
/// queue), so the user's payload is read once and written once. Valid until the writer prepares the next frame; the
/// body may be the caller's own payload.
/// </summary>
internal readonly ref struct WsFrame
{
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
