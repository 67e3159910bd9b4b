using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// A frame on its way into the send queue: a data frame goes only while the connection is still open, a close frame
/// goes regardless (its sender changed the state first), so no data frame lands after a close frame without a send
/// lock of the connection's own: checked under the engine's lock, or, for a frame a receive hook stages, inside the
/// stage's gate, which a close queued by another thread takes first (<see cref="SendStage"/>).
/// </summary>
internal readonly ref struct WsQueuedFrame : IMessageWriter
{
    private readonly WsFrame _frame;
    private readonly WsConnection? _openCheck;

    /// <param name="frame">The frame.</param>
    /// <param name="openCheck">The connection that must still be open, or null for a frame that goes regardless (a close frame: its sender changed the state first).</param>
    public WsQueuedFrame(WsFrame frame, WsConnection? openCheck)
    {
        _frame = frame;
        _openCheck = openCheck;
    }

    public int Length => _frame.Length;

    public bool Commit() => _openCheck == null || _openCheck.IsOpen;

    public bool MayBeRefused => _openCheck != null;

    public void WriteTo(ref QueueWriter queue) => _frame.WriteTo(ref queue);
}
