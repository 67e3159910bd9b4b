using System;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

/// <summary>
/// The one stream-session engine of every stream transport (TCP, Unix sockets, TLS): the session's lifecycle state
/// machine (states, transitions, hook order, teardown) and the root of its components: the <see cref="ReceivePump"/> (a struct inside it),
/// the <see cref="SendPipeline"/> (made by the first send) and the <see cref="MulticastCursor"/>. A transport supplies
/// only I/O; a host (server session or client) turns engine callbacks into the public hooks.
/// </summary>
/// <remarks>
/// Hook order, each at most once: Connecting, Connected, (TLS: Handshaking, Handshaked), Empty, data hooks,
/// Disconnecting, Disconnected. A connect-phase hook holds teardown back until it returns; OnDisconnected runs last,
/// once the socket is closed, both components' loops have stopped (or wait in a transport call) and OnDisconnecting
/// has returned. The engine is the <see cref="SessionLock"/>: the components take it for their shared state, and no
/// hook runs under it. Design and history: docs/design/engine.md.
/// </remarks>
internal sealed class StreamSessionEngine : SessionLock, IReceiveCompletion
{
    private static readonly Action<StreamSessionEngine, Exception> s_hookFailed = static (engine, exception) => engine.OnHandlerException(exception);

    private readonly IStreamTransport _transport;
    private readonly IStreamSessionHost _host;
    private ReceivePump _receive;
    private SendPipeline? _send;
    private MulticastCursor _cursor;
    private LifecycleSide? _side;
    private LifecycleFlags _flags;

    public StreamSessionEngine(IStreamTransport transport, IStreamSessionHost host)
    {
        _transport = transport;
        _host = host;
        _flags = new LifecycleFlags(ready: transport.Tls == null);
    }

    public SessionState State => _flags.State;

    public bool IsConnected => State == SessionState.Connected;

    /// <summary>Why the connection ended (the first reason recorded).</summary>
    public DisconnectReason Reason => _flags.Reason;

    /// <summary>Completes after <see cref="IStreamSessionHost.EngineDisconnected"/> has returned.</summary>
    public Task Completion
    {
        get
        {
            using var held = Enter();
            return _flags.Has(LifecycleFlag.Completed) ? Task.CompletedTask : (Side.Completion ??= new(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    public IStreamTransport Transport => _transport;

    internal IStreamSessionHost Host => _host;

    /// <summary>The options in force: the host's, read at each use (a connection may take its own copy of options it shared).</summary>
    public EngineOptions Options => _host.EngineOptions;

    /// <summary>The send side, made by the first send or multicast (an idle connection has none).</summary>
    internal SendPipeline Sender
    {
        get
        {
            var send = Volatile.Read(ref _send);
            if (send != null)
                return send;
            using var held = Enter();
            return _send ??= new SendPipeline(this);
        }
    }

    /// <summary>The send side if one was made; read without the lock.</summary>
    internal SendPipeline? SenderIfAny => Volatile.Read(ref _send);

    internal ref ReceivePump Receiver => ref _receive;

    /// <summary>The multicast cursor; written under the lock (see <see cref="MulticastCursor"/> for its lock-free reads).</summary>
    internal ref MulticastCursor Cursor => ref _cursor;

    /// <summary>The transport's hash (the idle sweep keys a dictionary by engine), so the locked engine's header holds no identity hash.</summary>
    public override int GetHashCode() => _transport.GetHashCode();

    /// <summary>Reference equality, as ever; declared beside <see cref="GetHashCode"/>.</summary>
    public override bool Equals(object? obj) => ReferenceEquals(this, obj);

    // The send and receive surface, as the connections and protocols use it.
    public bool AcceptsSends => State switch
    {
        SessionState.Connected => true,
        SessionState.Disconnecting => Hooks.Inside(this, HookKind.Disconnecting) && !_flags.Has(LifecycleFlag.ShutdownStarted) && !Closed,
        _ => false,
    };

    public bool IsWritable => SenderIfAny?.IsWritable ?? true;

    public long BytesPending => _cursor.IsAttached ? Sender.BytesPending : SenderIfAny?.BytesPending ?? 0;

    public long BytesSending => SenderIfAny?.BytesSending ?? 0;

    public long BytesSent => SenderIfAny?.BytesSent ?? 0;

    public long BytesReceived => _receive.BytesReceived;

    public SendStatus Enqueue(ReadOnlySpan<byte> data) => Sender.Enqueue(data, default);

    public SendStatus Enqueue(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body) => Sender.Enqueue(head, body);

    public SendStatus EnqueueWritten<T>(scoped ref T message)
        where T : IMessageWriter, allows ref struct
        => Sender.EnqueueWritten(ref message);

    public SendStatus EnqueueBorrowed(ReadOnlySpan<byte> head, ArraySegment<byte> body, IDisposable? bodyOwner) => Sender.EnqueueBorrowed(head, body, bodyOwner);

    public Task<bool> EnqueueAndWait(ReadOnlySpan<byte> data, out SendStatus status) => Sender.EnqueueAndWait(data, out status);

    public Task<bool> Flush() => Sender.Flush();

    public long SendBlocking(ReadOnlySpan<byte> data) => Sender.SendBlocking(data, default);

    public long SendBlocking(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body) => Sender.SendBlocking(head, body);

    /// <summary>Sends what the cork holds now, from a hook of the read (a WebSocket 101 leaves in a write of its own).</summary>
    public void SendHeldNow() => SenderIfAny?.SendHeld();

    public bool TakeRefusalReport() => Sender.TakeRefusalReport();

    public bool TakeSlowConsumerReport() => Sender.TakeSlowConsumerReport();

    public SendStatus OfferLogged(long start, long end, out long credit)
    {
        credit = 0;
        return _cursor.IsAttached ? MulticastIntake.Offer(this, start, end, out credit) : SendStatus.NotConnected;
    }

    public void SkipLogged(long start, long end)
    {
        if (_cursor.IsAttached)
            MulticastIntake.Skip(this, start, end);
    }

    public void WakeForLog()
    {
        // Both read here, on this object: a running sender takes the message itself (SendLoop.IsRunning says why).
        if (_cursor.IsAttached && !SenderRunning)
            Sender.WakeForLog();
    }

    public void StartReceiving() => _receive.Start(this);

    public IoResult ReceiveBlocking(Span<byte> buffer) => _receive.ReceiveBlocking(this, buffer);

    public void HoldReceiving() => _receive.Hold(this);

    public void ReleaseReceiving() => _receive.Release(this);

    public void CheckIdle(long now) => _receive.CheckIdle(this, now);

    void IReceiveCompletion.ReceiveCompleted(IoResult result) => _receive.Completed(this, result);

    /// <summary>
    /// Server path: OnConnecting, OnConnected, (TLS: OnHandshaking, handshake, OnHandshaked), OnEmpty, then receiving.
    /// The server joined the session to its multicast log when it registered it (<see cref="JoinLogLocked"/>).
    /// </summary>
    /// <returns>Completes when data may flow (after the handshake for TLS) or the connection ended first.</returns>
    public Task StartAccepted() => ConnectSequence.RunAsync(this, raiseConnecting: true, receive: true, log: null);

    /// <summary>Client path: the client raised OnConnecting before it connected; the rest as <see cref="StartAccepted"/>.</summary>
    /// <param name="receive">Start the receive loop (false for NetCoreServer's synchronous Connect, which leaves that to the user).</param>
    /// <param name="log">A multicast log to join when connected (the engine tests'; a client has none).</param>
    /// <returns>Completes when data may flow or the connection ended first.</returns>
    public Task StartConnected(bool receive, MulticastLog? log = null) => ConnectSequence.RunAsync(this, raiseConnecting: false, receive, log);

    /// <summary>
    /// Under <paramref name="log"/>'s lock: joins it at its end unless the disconnect has begun, so the session gets
    /// everything multicast from now on. A server joins a session before it counts it (issue 35); what is multicast
    /// before OnConnected waits in the log until then.
    /// </summary>
    public void JoinLogLocked(MulticastLog log)
    {
        using var held = Enter();
        if (State <= SessionState.Connected && !_cursor.IsAttached)
            _cursor.Join(log);
    }

    /// <summary>OnConnecting has returned: Connected, unless a disconnect came first.</summary>
    internal void MarkConnected()
    {
        using var held = Enter();
        if (State == SessionState.Connecting)
            _flags.SetState(SessionState.Connected, held);
    }

    /// <summary>The transport is ready for data (plain sockets from the start, TLS after the handshake).</summary>
    internal void MarkReady(bool raiseEmpty)
    {
        SendPipeline? send;
        using (var held = Enter())
        {
            _flags.Set(LifecycleFlag.Ready, true, held);
            // Multicast published during the handshake waits in the log: a sender is made to take it now.
            send = SenderIfAny ?? (_cursor.IsAttached && _cursor.LogEnd > _cursor.Position ? Sender : null);
        }
        if (send != null)
            send.StartWaiting(raiseEmpty);
        else if (raiseEmpty && State == SessionState.Connected)
            RunHook(HookKind.Sending, 0, static (e, _) => e._host.EngineEmpty());
        BeginShutdownIfDrained();
    }

    internal bool BeginHooks()
    {
        using var held = Enter();
        if (State != SessionState.Connecting)
            return false;
        _flags.Set(LifecycleFlag.HooksStarted, true, held);
        return true;
    }

    /// <summary>Holds teardown back while a connect-phase hook runs; false once a disconnect has started.</summary>
    internal bool Hold()
    {
        using var held = Enter();
        if (State >= SessionState.Disconnecting)
            return false;
        _flags.SetHolds(_flags.Holds + 1, held);
        return true;
    }

    internal void Release()
    {
        bool raise;
        using (var held = Enter())
        {
            _flags.SetHolds(_flags.Holds - 1, held);
            raise = _flags.Holds == 0 && State >= SessionState.Disconnecting && _flags.Phase == DisconnectingPhase.NotRaised;
            if (raise)
                _flags.SetPhase(DisconnectingPhase.Raising, held);
        }
        if (raise)
            RaiseDisconnecting();
        else
            TryFinish();
    }

    /// <summary>
    /// Starts a graceful disconnect: no new sends are accepted, what was accepted is delivered, the sending side is
    /// shut down and the socket closes when the peer ends its stream or <see cref="EngineOptions.DisconnectTimeout"/>
    /// passes (a zero timeout closes at once).
    /// </summary>
    /// <param name="reason">Why, if this is the first disconnect.</param>
    /// <param name="linger">
    /// Wait for the peer's end of stream before closing (the default); without it the socket closes once the sending
    /// side is shut down (for a caller that blocks until the end, whose peer may need this very thread pool).
    /// </param>
    /// <returns>False when a disconnect had already started.</returns>
    public bool Disconnect(DisconnectReason reason, bool linger = true)
    {
        // What a receive hook sent just before is on its way before the close.
        SenderIfAny?.SendHeld();
        var timeout = Options.DisconnectTimeout;
        if (timeout <= TimeSpan.Zero)
        {
            if (!EnterDisconnecting(reason, graceful: false))
                return false;
            CloseTransport();
            return true;
        }
        if (!EnterDisconnecting(reason, graceful: true, linger))
            return false;
        ArmDisconnectTimer(timeout);
        return true;
    }

    /// <summary>What the disconnect timer does, for a caller that has waited that long itself (the pool may be busy with its wait).</summary>
    public void ExpireDisconnect() => OnDisconnectTimeout();

    /// <summary>Closes at once, dropping queued data (errors, a server stop past its timeout, handler failures).</summary>
    public void Abort(DisconnectReason reason)
    {
        EnterDisconnecting(reason, graceful: false);
        CloseTransport();
    }

    private bool EnterDisconnecting(DisconnectReason reason, bool graceful, bool linger = true)
    {
        bool raise;
        using (var held = Enter())
        {
            if (State >= SessionState.Disconnecting)
                return false;
            _flags.SetState(SessionState.Disconnecting, held);
            if (_cursor.IsAttached)
            {
                // What was published so far was accepted and is queued; nothing later is.
                if (_cursor.LogEnd > _cursor.Position)
                    Sender.TakeLogged(held);
                _cursor.Leave();
            }
            _flags.SetReason(reason, held);
            _flags.Set(LifecycleFlag.Graceful, graceful, held);
            _flags.Set(LifecycleFlag.Linger, linger, held);
            raise = _flags.Holds == 0;
            if (raise)
                _flags.SetPhase(DisconnectingPhase.Raising, held);
        }
        if (raise)
            RaiseDisconnecting();
        return true;
    }

    /// <summary>OnDisconnecting (a graceful one may still send a goodbye), then the shutdown once all is out.</summary>
    private void RaiseDisconnecting()
    {
        if (_flags.Has(LifecycleFlag.HooksStarted))
            RunHook(_flags.Has(LifecycleFlag.Graceful) ? HookKind.Disconnecting : HookKind.Other, 0, static (e, _) => e._host.EngineDisconnecting());
        using (var held = Enter())
            _flags.SetPhase(DisconnectingPhase.Done, held);
        BeginShutdownIfDrained();
        TryFinish();
    }

    /// <summary>
    /// A graceful disconnect whose OnDisconnecting has returned and whose accepted data is all out: send end of stream,
    /// then close once the peer has ended its stream too (or the receive loop is not running, or no lingering was asked).
    /// The send pipeline calls it when it goes idle.
    /// </summary>
    internal void BeginShutdownIfDrained()
    {
        using (var held = Enter())
        {
            if (!_flags.Has(LifecycleFlag.Graceful) || _flags.Phase != DisconnectingPhase.Done || _flags.Has(LifecycleFlag.ShutdownStarted) || Closed || !Ready || !(SenderIfAny?.IsDrained(held) ?? true))
                return;
            // Decided under the lock that admits sends: nothing can be accepted, or start a send, after this.
            _flags.Set(LifecycleFlag.ShutdownStarted, true, held);
        }
        _ = ShutdownAsync();
    }

    private async Task ShutdownAsync()
    {
        await _transport.ShutdownSendAsync().ConfigureAwait(false);
        bool close;
        using (var held = Enter())
        {
            _flags.Set(LifecycleFlag.ShutdownDone, true, held);
            close = !_receive.IsRunning(held) || !_flags.Has(LifecycleFlag.Linger);
        }
        if (close)
            CloseTransport();
    }

    private void ArmDisconnectTimer(TimeSpan timeout)
    {
        var timer = new CallbackTimer(Options.Timers, static s => ((StreamSessionEngine)s).OnDisconnectTimeout(), this);
        using (var held = Enter())
        {
            if (Closed || _side?.DisconnectTimer != null)
                return;
            Side.DisconnectTimer = timer;
        }
        // Armed once published: a close in between has closed the entry, and the schedule does nothing.
        timer.Schedule(timeout);
    }

    private void OnDisconnectTimeout()
    {
        using (var held = Enter())
        {
            if (!(SenderIfAny?.IsDrained(held) ?? true) && Reason == DisconnectReason.Local)
                _flags.SetReason(DisconnectReason.Timeout, held);
        }
        CloseTransport();
    }

    /// <summary>Closes the socket (once): the loops end, queued sends fail, and the engine finishes when both have stopped.</summary>
    internal void CloseTransport()
    {
        CallbackTimer? timer;
        using (var held = Enter())
        {
            if (Closed)
                return;
            _flags.Set(LifecycleFlag.Closed, true, held);
            timer = _side?.DisconnectTimer;
            if (timer != null)
                _side!.DisconnectTimer = null;
        }
        // A receive loop paused for backpressure is released, to end.
        _receive.OnClosed(this);
        timer?.Close();
        _transport.Close();
        SenderIfAny?.FailQueued();
        TryFinish();
    }

    /// <summary>
    /// Finishes once the socket is closed, each loop has stopped or waits in a transport call, and no hook of the connect
    /// or disconnect phase, nor an OnEmpty, runs. Disposes the transport once no loop is inside it.
    /// </summary>
    internal void TryFinish()
    {
        bool finish, dispose;
        using (var held = Enter())
        {
            var send = _send;
            finish = !_flags.Has(LifecycleFlag.Finished) && Closed && _flags.Holds == 0 && _flags.Phase == DisconnectingPhase.Done
                && _receive.IsQuiescent(held) && (send?.IsQuiescent(held) ?? true);
            if (finish)
            {
                _flags.Set(LifecycleFlag.Finished, true, held);
                _flags.SetState(SessionState.Disconnected, held);
            }
            dispose = _flags.Has(LifecycleFlag.Finished) && !_flags.Has(LifecycleFlag.TransportDisposed) && !_receive.IsRunning(held) && !(send?.IsRunning ?? false);
            if (dispose)
                _flags.Set(LifecycleFlag.TransportDisposed, true, held);
        }
        if (dispose)
            _transport.Dispose();
        if (!finish)
            return;
        if (_flags.Has(LifecycleFlag.HooksStarted))
            RunHook(HookKind.Other, 0, static (e, _) => e._host.EngineDisconnected());
        _host.EngineReleased();
        TaskCompletionSource? completion;
        using (var held = Enter())
        {
            _flags.Set(LifecycleFlag.Completed, true, held);
            completion = _side?.Completion;
        }
        completion?.TrySetResult();
    }

    /// <summary>A transport call failed: OnError (unless quiet or not connected), then an abort.</summary>
    internal void OnTransportError(SocketError error)
    {
        if (Closed)
            return;
        if (State == SessionState.Connected && !SocketErrors.IsQuiet(error))
            RunHook(HookKind.Other, error, static (e, error) => e._host.EngineError(error));
        Abort(DisconnectReason.Error);
    }

    /// <summary>Raises a hook the engine's own code calls (see <see cref="Hooks"/> for the rule on exceptions).</summary>
    internal bool RunHook<TArg>(HookKind kind, TArg arg, Action<StreamSessionEngine, TArg> hook) => Hooks.Run(this, kind, arg, hook, s_hookFailed);

    private void OnHandlerException(Exception exception)
    {
        try
        {
            _host.EngineHandlerException(exception);
        }
        catch (Exception)
        {
            // The exception hook itself failed; the connection is going away regardless.
        }
        Abort(DisconnectReason.HandlerException);
    }

    // The lifecycle's flags: written under the lock, read with a volatile read (some without the lock, as marked).
    internal bool Closed => _flags.Has(LifecycleFlag.Closed);

    internal bool Ready => _flags.Has(LifecycleFlag.Ready);

    /// <summary>The <see cref="SendLoop"/>'s sender role, stored here (see <see cref="SendLoop.IsRunning"/>); read without the lock.</summary>
    internal bool SenderRunning => _flags.Has(LifecycleFlag.SenderRunning);

    /// <summary>For the <see cref="SendLoop"/> only: takes or gives up the sender role.</summary>
    internal void SetSenderRunning(bool running, SessionLock.Held held) => _flags.Set(LifecycleFlag.SenderRunning, running, held);

    internal bool ShutdownDone => _flags.Has(LifecycleFlag.ShutdownDone);

    /// <summary>The rare lifecycle state, made on first need; under the lock.</summary>
    private LifecycleSide Side => _side ??= new LifecycleSide();
}
