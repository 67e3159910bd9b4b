using System;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Framing;

/// <summary>
/// One framed message on its way into the send queue, written by its framing as one unit. Sent from a receive hook
/// (an echo, a reply) it waits in the queue behind the send cork, so a read's replies leave in one send.
/// </summary>
internal readonly ref struct FramedMessage : IMessageWriter
{
    private readonly MessageFraming _framing;
    private readonly ReadOnlySpan<byte> _payload;

    /// <summary>Checks that <paramref name="payload"/> may be sent with <paramref name="framing"/> (ArgumentException when not).</summary>
    public FramedMessage(MessageFraming framing, ReadOnlySpan<byte> payload)
    {
        _framing = framing;
        _payload = payload;
        Length = framing.FrameLength(payload);
    }

    public int Length { get; }

    public bool Commit() => true;

    public bool MayBeRefused => false;

    public void WriteTo(ref QueueWriter queue) => _framing.WriteFrame(_payload, ref queue);
}
