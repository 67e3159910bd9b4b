using System;
using System.Threading;
using NetCoreServer.Core;

namespace NetCoreServer.WebSockets;

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
/// Sending takes one lock per connection so that the check "no close frame sent yet", the compressor (whose context
/// must see messages in wire order) and the queueing happen as one step: concurrent senders never interleave frames
/// and nothing follows a close frame. The step only queues (the engine may run its send loop inline, OnSent and
/// OnEmpty, as SendAsync does); a blocking send waits for the socket after the lock is released, so a slow peer never
/// makes other senders wait. Blocking sends are bounded by OptionSendBufferLimit like SendAsync.
/// </remarks>
internal sealed partial class WsConnection : IStreamProtocol, IDisposable
{
    private const int Open = 0;
    private const int CloseSent = 1;
    private const int Closed = 2;

    private readonly IWsConnectionHost _host;
    private readonly WsFrameDecoder _decoder;
    private readonly object _sendLock = new();
    private readonly bool _masked;
    private readonly TimeSpan _closeTimeout;
    private readonly TimeSpan _keepAlive;
    private WsFrameWriter? _compressor;
    private int _state;
    private bool _disposed;
    private CallbackTimer? _timer;

    // Keep-alive: when the last byte arrived (Environment.TickCount64), and whether a ping is out unanswered.
    private long _lastReceived;
    private bool _pinged;

    public WsConnection(IWsConnectionHost host, WsRole role, WsHandshakeResult handshake, WsOptions options)
    {
        _host = host;
        _masked = role == WsRole.Client;
        _decoder = handshake.CreateDecoder(role, options.MaxMessageSize);
        var writer = handshake.CreateWriter(role, options.DeflateSettings());
        if (writer.Compresses)
            _compressor = writer;
        else
            writer.Dispose();
        _closeTimeout = options.CloseTimeout;
        _keepAlive = options.KeepAliveInterval;
        Subprotocol = handshake.Subprotocol;
        _lastReceived = Environment.TickCount64;
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
            FlushHeldLocked();
            _timer?.Close();
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
            _timer ??= new CallbackTimer(_host.Timers, static s => ((WsConnection)s).OnTimer(), this);
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
        var idle = TimeSpan.FromMilliseconds(Environment.TickCount64 - Volatile.Read(ref _lastReceived));
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
}
