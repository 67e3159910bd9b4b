using System;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Framing;

/// <summary>
/// One framed message on its way into the send queue: prefix, payload and suffix written as one unit. Sent from a
/// receive hook (an echo, a reply) it is staged in the thread's send cork, so a read's replies leave in one send.
/// </summary>
internal readonly ref struct FramedMessage(ReadOnlySpan<byte> prefix, ReadOnlySpan<byte> payload, ReadOnlySpan<byte> suffix) : IMessageWriter
{
    private readonly ReadOnlySpan<byte> _prefix = prefix;
    private readonly ReadOnlySpan<byte> _payload = payload;
    private readonly ReadOnlySpan<byte> _suffix = suffix;

    public int Length => _prefix.Length + _payload.Length + _suffix.Length;

    public bool Commit() => true;

    public void WriteTo(ref QueueWriter queue)
    {
        queue.Write(_prefix);
        queue.Write(_payload);
        queue.Write(_suffix);
    }
}
