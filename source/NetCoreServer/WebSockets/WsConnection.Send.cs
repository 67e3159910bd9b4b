using System;
using System.Buffers;

namespace NetCoreServer.WebSockets;

internal sealed partial class WsConnection
{
    /// <summary>
    /// Sends one whole message or control frame, as one unit. Returns the frame's size on the wire, or 0 when refused:
    /// a close frame has been sent or received, a control payload is over 125 bytes (no peer would accept it), or the
    /// engine refused (not connected, send limit).
    /// </summary>
    public long Send(WsOpcode opcode, ReadOnlySpan<byte> payload, bool blocking)
    {
        if (WsFrameEncoder.IsControl(opcode) && payload.Length > WsFrameEncoder.MaxControlPayload)
            return 0;
        long sent;
        lock (_sendLock)
        {
            if (_state != Open)
                return 0;
            // A blocking send waits for the socket: what is held must go first, and this frame with it.
            if (blocking)
                FlushHeldLocked();
            sent = EmitLocked(opcode, payload, hold: !blocking);
        }
        return blocking ? WaitSent(sent) : sent;
    }

    /// <summary>
    /// A blocking send waits after the lock is released, so a sender blocked on a slow peer never holds up the others
    /// (nor a hook of the send loop that sends).
    /// </summary>
    private long WaitSent(long sent) => sent > 0 && _host.WaitSent() ? sent : 0;

    /// <summary>
    /// Starts the close handshake: sends a close frame with <paramref name="status"/> and <paramref name="reason"/>
    /// (an empty payload for a status that may not travel, such as 0, 1005 or 1006; the reason cut to 123 bytes) and
    /// waits for the peer's close frame at most the close timeout. Only the first close frame is sent; 0 after that.
    /// </summary>
    public long SendClose(int status, ReadOnlySpan<byte> reason, bool blocking)
    {
        long sent;
        lock (_sendLock)
        {
            if (_state != Open)
                return 0;
            _state = CloseSent;
            sent = EmitCloseLocked(status, reason);
        }
        ArmTimer(_closeTimeout);
        return blocking ? WaitSent(sent) : sent;
    }

    /// <summary>
    /// Queues a close frame encoded once for many sessions (<c>CloseAll</c>) and starts waiting for the answer, unless a
    /// close frame was sent or received already.
    /// </summary>
    public bool SendPreparedClose(ReadOnlySpan<byte> frame)
    {
        bool sent;
        lock (_sendLock)
        {
            if (_state != Open)
                return false;
            _state = CloseSent;
            FlushHeldLocked();
            sent = _host.SendFrame(frame, default);
        }
        ArmTimer(_closeTimeout);
        return sent;
    }

    /// <summary>Answers or fails: sends a close frame unless one went out already, then ends the TCP connection.</summary>
    private void CloseAndDisconnect(int status, ReadOnlySpan<byte> reason, DisconnectReason why)
    {
        lock (_sendLock)
        {
            if (_state == Open && !_disposed)
                EmitCloseLocked(status, reason);
            _state = Closed;
        }
        _host.Disconnect(why);
    }

    private long EmitCloseLocked(int status, ReadOnlySpan<byte> reason)
    {
        Span<byte> payload = stackalloc byte[WsFrameEncoder.MaxControlPayload];
        var length = WsFrameEncoder.WriteClosePayload(payload, status, reason);
        FlushHeldLocked();
        return EmitLocked(WsOpcode.Close, payload[..length], hold: false);
    }

    /// <summary>Frames and queues, under the send lock (the queueing may run the engine's send loop inline, as SendAsync does).</summary>
    private long EmitLocked(WsOpcode opcode, ReadOnlySpan<byte> payload, bool hold)
    {
        if (_compressor != null)
            return Write(_compressor.Prepare(opcode, payload), hold);
        Span<byte> head = stackalloc byte[WsFrameEncoder.MaxHeaderSize];
        var key = _masked ? WsMask.NewKey() : 0;
        var size = WsFrameEncoder.WriteHeader(head, opcode, payload.Length, masked: _masked, maskKey: key);
        return Write(new WsFrame(head[..size], payload, _masked, key), hold);
    }

    /// <summary>
    /// Hands a frame to the engine. A server frame goes as header and payload (each copied once into the queue); a
    /// client frame is masked on its way into a pooled array (the user's payload is never changed), sent from there.
    /// </summary>
    private long Write(WsFrame frame, bool hold)
    {
        var length = frame.Length;
        if (hold && TryHoldLocked(frame))
            return length;
        FlushHeldLocked();
        if (!frame.IsMasked)
            return _host.SendFrame(frame.Head, frame.Body) ? length : 0;
        var bytes = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            frame.CopyTo(bytes);
            return _host.SendFrame(bytes.AsSpan(0, length), default) ? length : 0;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(bytes);
        }
    }
}
