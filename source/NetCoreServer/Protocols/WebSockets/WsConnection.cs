using System;
using System.Runtime.CompilerServices;
using System.Text;
using System.Threading;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Framing;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The WebSocket side of one upgraded connection (RFC 6455), with no socket in it: the one framer behind WsSession,
/// WssSession, WsClient and WssClient. It sits in the connection's protocol slot after the upgrade and decodes what
/// arrives into the host's hooks; it frames what the host sends (masked with a fresh key per frame for a client,
/// compressed when permessage-deflate was negotiated) and hands each frame to the engine as one unit; and it runs the
/// close handshake: a close frame received is answered with its status and reason, then the TCP connection closes; a
/// close frame sent waits for the answer at most <see cref="WsOptions.CloseTimeout"/>. Protocol errors found by the
/// decoder (1002, 1007, 1009) raise OnWsError, are sent as the close status, and end the connection.
/// </summary>
/// <remarks>
/// Lock discipline: a frame goes into the engine's send queue as one unit and only while the connection is still open,
/// both checked under the session lock (<see cref="WsQueuedFrame"/>), so concurrent senders never interleave frames and
/// nothing follows a close frame, which moves <c>_state</c> before it is queued. Close frames and, with
/// permessage-deflate, every frame (the compressor's context must see messages in wire order) also take
/// <c>_sendLock</c>, which guards the state's transitions, the compressor and the timer. A blocking send waits after
/// every lock is released. The engine's cork batches what a read's hooks send (docs/design/websocket-send.md).
/// </remarks>
internal sealed class WsConnection : IStreamProtocol, IMessageSource, IDisposable
{
    private const int Open = 0;
    private const int CloseSent = 1;
    private const int Closed = 2;

    private readonly IWsConnectionHost _host;
    private readonly WsFrameDecoder _decoder;
    private readonly object _sendLock = new();
    private readonly bool _masked;
    private readonly bool _compresses;
    private readonly TimeSpan _closeTimeout;
    private readonly TimeSpan _keepAlive;
    private readonly WsMessageClock? _messageClock;
    private readonly Diagnostics.ServerMetrics? _metrics;
    private readonly TimerWheel _wheel;
    private WsFrameWriter? _compressor;
    private int _state;
    private bool _disposed;
    private CallbackTimer? _timer;

    // Keep-alive: when the last byte arrived (the wheel's Now), and whether a ping is out unanswered.
    private long _lastReceived;
    private bool _pinged;

    // A client's running ReceiveMessagesAsync enumeration, if any.
    private InboxSlot _inbox;

    // A blocking ReceiveText/ReceiveBinary waits for one message: decoding stops after it, the rest stays unconsumed.
    private bool _capturing;
    private byte[]? _captured;

    public WsConnection(IWsConnectionHost host, WsRole role, WsHandshakeResult handshake, WsOptions options)
    {
        _host = host;
        _metrics = host.Metrics;
        _wheel = host.Timers;
        _masked = role == WsRole.Client;
        _decoder = handshake.CreateDecoder(role, options.MaxMessageSize);
        var writer = handshake.CreateWriter(role, options.DeflateSettings());
        if (writer.Compresses)
        {
            _compressor = writer;
            _compresses = true;
        }
        else
            writer.Dispose();
        _closeTimeout = options.CloseTimeout;
        _keepAlive = options.KeepAliveInterval;
        if (options.MessageTimeout != Timeout.InfiniteTimeSpan)
            _messageClock = new WsMessageClock(_wheel, options.MessageTimeout, OnMessageTimeout);
        Subprotocol = handshake.Subprotocol;
        _lastReceived = _wheel.Now;
    }

    /// <summary>The subprotocol the handshake settled on, or null.</summary>
    public string? Subprotocol { get; }

    /// <summary>True when permessage-deflate is on for what arrives.</summary>
    public bool Decompresses => _decoder.Decompresses;

    /// <summary>True until a close frame is sent or received: data, pings and pongs may still be sent.</summary>
    public bool IsOpen => Volatile.Read(ref _state) == Open;

    /// <summary>Starts the keep-alive clock when one is configured (the connection has upgraded).</summary>
    public void Start()
    {
        if (_keepAlive > TimeSpan.Zero)
            ArmTimer(_keepAlive);
    }

    /// <summary>Stops the clocks and releases the decoder's and compressor's buffers (the connection has ended).</summary>
    public void Dispose()
    {
        lock (_sendLock)
        {
            _disposed = true;
            _state = Closed;
            _timer?.Close();
            _messageClock?.Close();
            _compressor?.Dispose();
            _compressor = null;
        }
        _decoder.Dispose();
    }

    private void ArmTimer(TimeSpan due)
    {
        lock (_sendLock)
        {
            if (_disposed)
                return;
            _timer ??= new CallbackTimer(_wheel, static s => ((WsConnection)s).OnTimer(), this);
            _timer.Schedule(due);
        }
    }

    /// <summary>The one timer (an entry on the server's wheel): the close timeout once a close frame is out, the keep-alive clock before.</summary>
    private void OnTimer()
    {
        var state = Volatile.Read(ref _state);
        if (state != Open)
        {
            // The peer did not answer our close frame in time (or TCP is still closing): it may not be reading at all,
            // so waiting again for what is queued to drain would only hold the connection longer.
            _host.Abort(DisconnectReason.Timeout);
            return;
        }
        var idle = TimeSpan.FromMilliseconds(_wheel.Now - Volatile.Read(ref _lastReceived));
        if (idle < _keepAlive)
        {
            Volatile.Write(ref _pinged, false);
            ArmTimer(_keepAlive - idle);
            return;
        }
        if (!Volatile.Read(ref _pinged))
        {
            Volatile.Write(ref _pinged, true);
            Send(WsOpcode.Ping, default, blocking: false);
            ArmTimer(_keepAlive);
            return;
        }
        _host.RaiseError("the peer sent nothing, not even a pong, within the keep-alive interval");
        Fail(WsCloseStatus.GoingAway, "keep-alive timeout");
    }

    /// <summary>
    /// Sends one whole message or control frame, as one unit. Returns the frame's size on the wire, or 0 when refused:
    /// a close frame has been sent or received, a control payload is over 125 bytes (no peer would accept it), or the
    /// engine refused (not connected, send limit).
    /// </summary>
    public long Send(WsOpcode opcode, ReadOnlySpan<byte> payload, bool blocking)
    {
        if (WsFrameEncoder.IsControl(opcode) && payload.Length > WsFrameEncoder.MaxControlPayload)
            return 0;
        if (!IsOpen)
            return 0;
        long sent;
        if (!_compresses)
        {
            // No send lock: the engine's lock orders the frames, and each goes only if still open (WsQueuedFrame).
            sent = Emit(opcode, payload, checkOpen: true);
        }
        else
        {
            lock (_sendLock)
            {
                // The compressor's context must see messages in wire order.
                var compressor = _compressor;
                if (_state != Open || compressor == null)
                    return 0;
                sent = Write(compressor.Prepare(opcode, payload), checkOpen: true);
            }
        }
        if (sent > 0 && opcode is WsOpcode.Text or WsOpcode.Binary)
            _metrics?.WsMessageSent();
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
            Volatile.Write(ref _state, CloseSent);
            sent = EmitCloseLocked(status, reason);
        }
        ArmTimer(_closeTimeout);
        return blocking ? WaitSent(sent) : sent;
    }

    /// <summary>The server drains: close 1001 "going away" (RFC 6455 §7.4.1); the connection ends when the peer answers, or at the close timeout.</summary>
    public bool BeginDrain() => SendClose(WsCloseStatus.GoingAway, "server stopping"u8, blocking: false) > 0;

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
            Volatile.Write(ref _state, CloseSent);
            var queued = new WsQueuedFrame(new WsFrame(frame, default, false, 0), openCheck: null);
            sent = _host.SendFrame(ref queued);
        }
        ArmTimer(_closeTimeout);
        return sent;
    }

    /// <summary>Answers or fails: sends a close frame unless one went out already, then ends the TCP connection.</summary>
    private void CloseAndDisconnect(int status, ReadOnlySpan<byte> reason, DisconnectReason why)
    {
        lock (_sendLock)
        {
            // Closed before the close frame is queued: a data frame sent meanwhile goes before it or not at all.
            var answer = _state == Open && !_disposed;
            Volatile.Write(ref _state, Closed);
            if (answer)
                EmitCloseLocked(status, reason);
        }
        _host.Disconnect(why);
    }

    /// <summary>Under the send lock, with the state already moved past Open.</summary>
    private long EmitCloseLocked(int status, ReadOnlySpan<byte> reason)
    {
        Span<byte> payload = stackalloc byte[WsFrameEncoder.MaxControlPayload];
        var length = WsFrameEncoder.WriteClosePayload(payload, status, reason);
        var compressor = _compressor;
        if (compressor != null)
            return Write(compressor.Prepare(WsOpcode.Close, payload[..length]), checkOpen: false);
        return Emit(WsOpcode.Close, payload[..length], checkOpen: false);
    }

    /// <summary>Frames an uncompressed frame (masked with a fresh key for a client) and queues it.</summary>
    private long Emit(WsOpcode opcode, ReadOnlySpan<byte> payload, bool checkOpen)
    {
        // An inline array, not stackalloc: see HeadBytes.
        var headBytes = default(HeadBytes);
        Span<byte> head = headBytes;
        var key = _masked ? WsMask.NewKey() : 0;
        var size = WsFrameEncoder.WriteHeader(head, opcode, payload.Length, masked: _masked, maskKey: key);
        return Write(new WsFrame(head[..size], payload, _masked, key), checkOpen);
    }

    /// <summary>
    /// Hands a frame to the engine, which writes it once into its send queue (a client frame masked on its way in, the
    /// user's payload never changed); the engine's cork batches what a read's hooks send.
    /// </summary>
    private long Write(WsFrame frame, bool checkOpen)
    {
        var queued = new WsQueuedFrame(frame, checkOpen ? this : null);
        return _host.SendFrame(ref queued) ? frame.Length : 0;
    }

    /// <summary>
    /// Decodes what arrived into the host's hooks, on the receive thread (calls never overlap); returns how many bytes
    /// were consumed (all of them once a close frame was read or the peer broke the protocol).
    /// </summary>
    public int Received(ReadOnlySpan<byte> data)
    {
        // A full enumeration holds the loop: nothing more is decoded (the engine keeps the bytes) until it has room.
        if (_inbox.Current is { Holding: true })
            return 0;
        Volatile.Write(ref _lastReceived, _wheel.Now);
        var consumed = _decoder.Receive(data, new Frames(this));
        _messageClock?.Watch(_decoder);
        return consumed;
    }

    /// <summary>The message clock ran out (a pool thread): unless a close is under way already, the connection fails with 1008.</summary>
    private void OnMessageTimeout()
    {
        if (!IsOpen)
            return;
        // The decoder's buffer goes back when the connection ends (Dispose), at most the disconnect timeout later.
        _host.RaiseError("a message was not finished within the message timeout");
        Fail(WsCloseStatus.PolicyViolation, "message timeout");
    }

    private bool OnWsMessage(WsOpcode opcode, ArraySegment<byte> payload)
    {
        _metrics?.WsMessageReceived();
        var array = payload.Array ?? Array.Empty<byte>();
        if (!_capturing)
        {
            // An enumeration that is now full stops decoding after this message and holds the loop.
            var more = _inbox.Current is not { } inbox || inbox.Add(payload);
            _host.RaiseReceived(array, payload.Offset, payload.Count);
            return more;
        }
        _capturing = false;
        _captured = payload.AsSpan().ToArray();
        _host.RaiseReceived(array, payload.Offset, payload.Count);
        return false;
    }

    private void OnWsPing(ArraySegment<byte> payload) => _host.RaisePing(payload.Array ?? Array.Empty<byte>(), payload.Offset, payload.Count);

    private void OnWsPong(ArraySegment<byte> payload)
    {
        Volatile.Write(ref _pinged, false);
        _host.RaisePong(payload.Array ?? Array.Empty<byte>(), payload.Offset, payload.Count);
    }

    /// <summary>
    /// The peer's close frame: the hook sees its reason and status (1005 when it had none); then, unless a close frame
    /// went out already (ours first, or one sent from the hook), the same status and reason are sent back (§5.5.1);
    /// then the TCP connection closes.
    /// </summary>
    private void OnWsClose(int status, ArraySegment<byte> reason)
    {
        var initiatedHere = Volatile.Read(ref _state) != Open;
        _host.RaiseClose(reason.Array ?? Array.Empty<byte>(), reason.Offset, reason.Count, status);
        CloseAndDisconnect(status, reason, initiatedHere ? DisconnectReason.Local : DisconnectReason.PeerClosed);
    }

    /// <summary>The peer broke the protocol: OnWsError, then the close status (1002, 1007, 1009) goes out and the connection ends.</summary>
    private void OnWsFailure(int status, string reason)
    {
        _host.RaiseError(reason);
        CloseAndDisconnect(status, Encoding.ASCII.GetBytes(reason), DisconnectReason.ProtocolError);
    }

    MessageInbox IMessageSource.OpenInbox(IProtocolConnection connection, int capacity) => _inbox.Open(connection, capacity);

    void IMessageSource.CloseInbox(MessageInbox inbox) => _inbox.Close(inbox);

    void IMessageSource.Ended() => _inbox.Ended();

    /// <summary>Asks the next <see cref="Received"/> calls to stop after one whole message, kept for <see cref="TakeCaptured"/>.</summary>
    public void CaptureNext()
    {
        _captured = null;
        _capturing = true;
    }

    /// <summary>True once a message has been captured since <see cref="CaptureNext"/>.</summary>
    public bool HasCaptured => _captured != null;

    /// <summary>The message captured since <see cref="CaptureNext"/>, or null while none has arrived.</summary>
    public byte[]? TakeCaptured()
    {
        var captured = _captured;
        if (captured != null)
            _captured = null;
        return captured;
    }

    /// <summary>Stops waiting for a message to capture (the blocking receive gave up).</summary>
    public void StopCapturing()
    {
        _capturing = false;
        _captured = null;
    }

    /// <summary>Fails the connection from this side (keep-alive, message timeout): the close status goes out, then the TCP connection closes.</summary>
    private void Fail(int status, string reason) => CloseAndDisconnect(status, Encoding.ASCII.GetBytes(reason), DisconnectReason.Timeout);

    /// <summary>The decoder's handler: a struct, so the decoder's loop is compiled for it and calls these methods directly.</summary>
    private readonly struct Frames(WsConnection connection) : IWsFrameHandler
    {
        public bool OnWsMessage(WsOpcode opcode, ArraySegment<byte> payload) => connection.OnWsMessage(opcode, payload);

        public void OnWsPing(ArraySegment<byte> payload) => connection.OnWsPing(payload);

        public void OnWsPong(ArraySegment<byte> payload) => connection.OnWsPong(payload);

        public void OnWsClose(int status, ArraySegment<byte> reason) => connection.OnWsClose(status, reason);

        public void OnWsFailure(int status, string reason) => connection.OnWsFailure(status, reason);
    }

    /// <summary>
    /// Room for a frame head on the stack. A stackalloc in a method makes the JIT copy its span arguments behind a stack
    /// cookie on every call, and reading the copy back stalls the CPU (store forwarding): on the per-frame path that
    /// showed as a single hot instruction in the profile (docs/design/framing.md, "Per message").
    /// </summary>
    [InlineArray(WsFrameEncoder.MaxHeaderSize)]
    private struct HeadBytes
    {
        private byte _first;
    }
}
