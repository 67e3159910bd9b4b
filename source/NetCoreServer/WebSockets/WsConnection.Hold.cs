using System;
using System.Buffers;

namespace NetCoreServer.WebSockets;

/// <summary>
/// Frames sent from the hooks of one read are held and handed to the engine together when the read has been decoded.
/// </summary>
/// <remarks>
/// A read often carries many messages (a client keeping many in flight), and an echo or a reply sends one frame per
/// message from OnWsReceived. Queued one by one, each frame would be picked up by an idle send loop at once: one socket
/// write per message, and over TLS one record (encryption, MAC, header) per message. Held, they are one queue append,
/// one write and one TLS record per read. Only the receive thread's own non-blocking sends from inside
/// <see cref="Received"/> are held: a frame from any other thread, a blocking send, a close frame or a multicast first
/// hands over what is held, under the send lock, so the order of frames on the wire is the order of the sends, and
/// no other thread waits for a hook to return. What is held counts against OptionSendBufferLimit as if queued.
/// </remarks>
internal sealed partial class WsConnection
{
    /// <summary>The most bytes held; a frame that does not fit flushes what is held, and a larger one goes by itself.</summary>
    private const int HoldCapacity = 32 * 1024;

    // The connection whose Received runs on this thread (hooks may multicast: see FlushHeldOfThisThread).
    [ThreadStatic]
    private static WsConnection? t_holding;

    // Guarded by _sendLock. _holdingThread is the receive thread's id while Received runs, 0 otherwise.
    private int _holdingThread;
    private byte[]? _held;
    private int _heldLength;
    private long _holdRoom;

    /// <summary>Starts holding the frames the receive thread sends until <see cref="EndHolding"/>.</summary>
    private void BeginHolding()
    {
        lock (_sendLock)
            _holdingThread = Environment.CurrentManagedThreadId;
        t_holding = this;
    }

    /// <summary>Hands what was held to the engine as one unit and stops holding.</summary>
    private void EndHolding()
    {
        t_holding = null;
        lock (_sendLock)
        {
            _holdingThread = 0;
            FlushHeldLocked();
        }
    }

    /// <summary>
    /// Before a multicast: when it is called from a hook of a connection, that connection's held frames are queued first,
    /// so the multicast follows them on that connection. Frames other receive threads hold are not waited for (those
    /// sends and the multicast are concurrent), and no connection's send lock is taken under the server's multicast lock.
    /// </summary>
    public static void FlushHeldOfThisThread() => t_holding?.Flush();

    /// <summary>Hands what is held to the engine now (the connection is about to close: it must not be left behind).</summary>
    public void Flush()
    {
        lock (_sendLock)
            FlushHeldLocked();
    }

    /// <summary>Copies the frame (masked when it is a client's) after what is held; false when it must be sent by itself.</summary>
    private bool TryHoldLocked(WsFrame frame)
    {
        var length = frame.Length;
        if (_holdingThread != Environment.CurrentManagedThreadId || _disposed || length > HoldCapacity)
            return false;
        if (_heldLength + length > HoldCapacity)
            FlushHeldLocked();
        if (_held == null)
        {
            // Once per batch: the room left under the send limit (the send loop only makes more while frames are held).
            _holdRoom = _host.SendRoom();
            _held = ArrayPool<byte>.Shared.Rent(HoldCapacity);
        }
        if (_heldLength + length > _holdRoom)
            return false;
        frame.CopyTo(_held.AsSpan(_heldLength));
        _heldLength += length;
        return true;
    }

    /// <summary>Queues what is held as one unit (the engine copies it) and gives the buffer back.</summary>
    private void FlushHeldLocked()
    {
        var held = _held;
        if (held == null)
            return;
        if (_heldLength > 0 && !_disposed)
            _host.SendFrame(held.AsSpan(0, _heldLength), default);
        _held = null;
        _heldLength = 0;
        ArrayPool<byte>.Shared.Return(held);
    }

}
