using System;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// The one stream-session engine shared by every stream transport (TCP, Unix sockets, TLS): it owns the connect
/// sequence, the receive loop, the send queue, the state machine, statistics, limits and teardown. A transport
/// supplies only I/O; a host (server session or client) turns engine callbacks into the public hooks.
/// </summary>
/// <remarks>
/// Hook order, each at most once: Connecting, Connected, (TLS: Handshaking, Handshaked), Empty, data hooks,
/// Disconnecting, Disconnected. The connect-phase hooks hold teardown back: a disconnect requested while one of them
/// runs takes effect when it returns, so OnDisconnecting never overlaps or precedes OnConnected. OnDisconnected runs
/// last, after the socket is closed, both loops have stopped (or wait in a transport call, see below) and
/// OnDisconnecting has returned. A connection disconnected before its hooks began (a server stopping between accept and start) raises none of them.
/// All lifecycle fields are guarded by the engine's own monitor (<c>lock (this)</c>: the engine is internal and nothing
/// else locks it, and an idle session then holds no separate lock object), which is never held while a hook runs.
/// <para>
/// Once the engine has closed the transport, a loop still waiting in a transport call (or a deferred send loop the
/// pool has not started yet) holds nothing up: on Linux the runtime completes that call, even when it only reports the
/// abort, through the thread pool, and a connection must end (and a Stop or a client's Disconnect return) even while
/// code elsewhere keeps every pool thread blocked. Such a loop raises no hook when it resumes; it only gives back its
/// buffers, and the transport is disposed after it.
/// </para>
/// </remarks>
internal sealed partial class StreamSessionEngine
{
    private static readonly Action<StreamSessionEngine, Exception> s_hookFailed = static (engine, exception) => engine.OnHandlerException(exception);

    private readonly IStreamTransport _transport;
    private readonly IStreamSessionHost _host;
    // Bytes rather than ints (with the flags, see StreamSessionEngine.Flags.cs, the counters fill one 8-byte slot). At
    // most two holds: the constructor's and one connect-phase hook's at a time.
    private byte _holds = 1;
    // The receive loop's parks minus its unparks: its completion may unpark it before the thread that started the
    // receive has parked it, so the count dips below zero for a moment instead of leaving a running loop marked parked.
    // Between -1 and 2: one pending receive or one paused wait.
    private sbyte _receiveParks;

    public StreamSessionEngine(IStreamTransport transport, IStreamSessionHost host)
    {
        _transport = transport;
        _host = host;
        _flags = transport.Tls == null ? (int)Flag.Ready : 0;
    }

    private enum Phase : byte
    {
        NotRaised,
        Raising,
        Done,
    }

    /// <summary>The engine's two I/O loops, for <see cref="Park"/>: the send loop as a flag (<see cref="SendParked"/>), the receive loop counted in <see cref="_receiveParks"/>.</summary>
    [Flags]
    private enum Loops : byte
    {
        None = 0,
        Receive = 1,
        Send = 2,
    }

    public SessionState State => (SessionState)GetBits((int)Flag.StateShift, StateMask);

    public bool IsConnected => State == SessionState.Connected;

    /// <summary>Why the connection ended (the first reason recorded).</summary>
    public DisconnectReason Reason => (DisconnectReason)GetBits((int)Flag.ReasonShift, ReasonMask);

    /// <summary>Completes after <see cref="IStreamSessionHost.EngineDisconnected"/> has returned.</summary>
    public Task Completion
    {
        get
        {
            lock (this)
                return Completed ? Task.CompletedTask : (Side.Completion ??= new(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    public IStreamTransport Transport => _transport;

    /// <summary>
    /// The transport's hash (the idle sweep keys a dictionary by engine): its identity hash unless it has a hash of its
    /// own. The engine's own is left unused: an object whose header holds an identity hash and is then locked, as the
    /// engine locks itself, moves both into a sync block the runtime allocates for it.
    /// </summary>
    public override int GetHashCode() => _transport.GetHashCode();

    /// <summary>Reference equality, as ever; declared beside <see cref="GetHashCode"/>.</summary>
    public override bool Equals(object? obj) => ReferenceEquals(this, obj);

    /// <summary>The options in force: the host's, read at each use (a connection may take its own copy of options it shared).</summary>
    public EngineOptions Options => _host.EngineOptions;

    /// <summary>Server path: OnConnecting, OnConnected, (TLS: OnHandshaking, handshake, OnHandshaked), OnEmpty, then receiving.</summary>
    /// <param name="log">The server's multicast log, joined when the session is connected.</param>
    /// <returns>Completes when data may flow (after the handshake for TLS) or the connection ended first.</returns>
    public Task StartAccepted(MulticastLog log) => StartAsync(raiseConnecting: true, receive: true, log);

    /// <summary>Client path: the client raised OnConnecting before it connected; the rest as <see cref="StartAccepted"/>.</summary>
    /// <param name="receive">Start the receive loop (false for NetCoreServer's synchronous Connect, which leaves that to the user).</param>
    /// <param name="log">A multicast log to join when connected (the engine tests'; a client has none).</param>
    /// <returns>Completes when data may flow or the connection ended first.</returns>
    public Task StartConnected(bool receive, MulticastLog? log = null) => StartAsync(raiseConnecting: false, receive, log);

    private async Task StartAsync(bool raiseConnecting, bool receive, MulticastLog? log)
    {
        // The constructor's hold covers the connect hooks; a disconnect requested before they begin skips them all.
        if (!BeginHooks())
        {
            // TLS: nothing can be sent before a handshake and none starts now, so a graceful end would only wait out
            // the disconnect timeout (the default one: the hook that may set it did not run either).
            if (_transport.Tls != null)
                CloseTransport();
            Release();
            return;
        }
        if (raiseConnecting)
            RunHook(HookKind.Other, 0, static (e, _) => e._host.EngineConnecting());
        lock (this)
        {
            if (State == SessionState.Connecting)
                SetStateLocked(SessionState.Connected);
        }
        AttachLog(log);
        RunHook(HookKind.Other, 0, static (e, _) => e._host.EngineConnected());
        Release();

        if (_transport.Tls != null)
        {
            // Disconnected before the handshake began: nothing queued can be delivered without one.
            if (!Hold())
            {
                CloseTransport();
                return;
            }
            RunHook(HookKind.Other, 0, static (e, _) => e._host.EngineHandshaking());
            Release();
            var error = await _transport.HandshakeAsync().ConfigureAwait(false);
            if (error != SocketError.Success)
            {
                if (Hold())
                {
                    RunHook(HookKind.Other, error, static (e, error) => e._host.EngineError(error));
                    Release();
                }
                Abort(DisconnectReason.HandshakeFailed);
                return;
            }
        }

        // Disconnected meanwhile: what was queued is still delivered (a graceful disconnect), but no more hooks begin.
        var held = Hold();
        if (held && _transport.Tls != null)
            RunHook(HookKind.Other, 0, static (e, _) => e._host.EngineHandshaked());
        MarkReady(raiseEmpty: held);
        if (!held)
            return;
        Release();
        if (receive)
            StartReceiving();
    }

    private bool BeginHooks()
    {
        lock (this)
        {
            if (State != SessionState.Connecting)
                return false;
            HooksStarted = true;
            return true;
        }
    }

    /// <summary>Holds teardown back while a connect-phase hook runs; false once a disconnect has started.</summary>
    private bool Hold()
    {
        lock (this)
        {
            if (State >= SessionState.Disconnecting)
                return false;
            _holds++;
            return true;
        }
    }

    private void Release()
    {
        bool raise;
        lock (this)
        {
            _holds--;
            raise = _holds == 0 && State >= SessionState.Disconnecting && DisconnectingPhase == Phase.NotRaised;
            if (raise)
                DisconnectingPhase = Phase.Raising;
        }
        if (raise)
            RaiseDisconnecting();
        else
            TryFinish();
    }

    /// <summary>
    /// Starts a graceful disconnect: no new sends are accepted, what was accepted is delivered, the sending side
    /// is shut down and the socket closes when the peer ends its stream or <see cref="EngineOptions.DisconnectTimeout"/>
    /// passes (a zero timeout closes at once).
    /// </summary>
    /// <param name="reason">Why, if this is the first disconnect.</param>
    /// <param name="linger">
    /// Wait for the peer's end of stream before closing (the default). Without it the socket closes as soon as the
    /// sending side is shut down: for a caller that blocks until the end, whose peer may need this very thread pool
    /// (an in-process server) to answer.
    /// </param>
    /// <returns>False when a disconnect had already started.</returns>
    public bool Disconnect(DisconnectReason reason, bool linger = true)
    {
        // What a receive hook sent just before is on its way before the close (a zero timeout closes at once).
        SendHeld();
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

    /// <summary>
    /// What the disconnect timer does, for a caller that has waited that long itself: closes a graceful disconnect that
    /// has not finished. The timer runs on the thread pool, which that caller's own wait may be keeping busy.
    /// </summary>
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
        lock (this)
        {
            if (State >= SessionState.Disconnecting)
                return false;
            SetStateLocked(SessionState.Disconnecting);
            DetachLogLocked();
            SetReasonLocked(reason);
            Graceful = graceful;
            Linger = linger;
            raise = _holds == 0;
            if (raise)
                DisconnectingPhase = Phase.Raising;
        }
        if (raise)
            RaiseDisconnecting();
        return true;
    }

    /// <summary>OnDisconnecting (a graceful one may still send a goodbye), then the shutdown once all is out.</summary>
    private void RaiseDisconnecting()
    {
        if (HooksStarted)
            RunHook(Graceful ? HookKind.Disconnecting : HookKind.Other, 0, static (e, _) => e._host.EngineDisconnecting());
        lock (this)
            DisconnectingPhase = Phase.Done;
        BeginShutdownIfDrained();
        TryFinish();
    }

    /// <summary>
    /// A graceful disconnect whose OnDisconnecting has returned and whose accepted data is all out: send end of stream,
    /// then close once the peer has ended its stream too (or the receive loop is not running, or no lingering was asked).
    /// </summary>
    private void BeginShutdownIfDrained()
    {
        lock (this)
        {
            if (!Graceful || DisconnectingPhase != Phase.Done || ShutdownStarted || Closed || !Ready || SendRunning || !QueueEmpty)
                return;
            // Decided under the lock that admits sends: nothing can be accepted, or start a send, after this.
            ShutdownStarted = true;
        }
        _ = ShutdownAsync();
    }

    private async Task ShutdownAsync()
    {
        await _transport.ShutdownSendAsync().ConfigureAwait(false);
        bool close;
        lock (this)
        {
            ShutdownDone = true;
            close = !ReceiveRunning || !Linger;
        }
        if (close)
            CloseTransport();
    }

    private void ArmDisconnectTimer(TimeSpan timeout)
    {
        // Created running: if it fires before it is published, the timeout simply closes the connection early.
        var timer = new Timer(static s => ((StreamSessionEngine)s!).OnDisconnectTimeout(), this, timeout, Timeout.InfiniteTimeSpan);
        lock (this)
        {
            if (!Closed && _side?.DisconnectTimer == null)
            {
                Side.DisconnectTimer = timer;
                return;
            }
        }
        timer.Dispose();
    }

    private void OnDisconnectTimeout()
    {
        lock (this)
        {
            if ((SendRunning || !QueueEmpty) && Reason == DisconnectReason.Local)
                SetReasonLocked(DisconnectReason.Timeout);
        }
        CloseTransport();
    }

    private void CloseTransport()
    {
        Timer? timer;
        TaskCompletionSource? paused;
        lock (this)
        {
            if (Closed)
                return;
            Closed = true;
            timer = _side?.DisconnectTimer;
            if (timer != null)
                _side!.DisconnectTimer = null;
            // A receive loop paused for backpressure is released, to end.
            paused = TakeWritableLocked();
        }
        StopIdleWatch();
        timer?.Dispose();
        paused?.TrySetResult();
        _transport.Close();
        FailQueuedSends();
        TryFinish();
    }

    /// <summary>
    /// Finishes once the socket is closed, each loop has stopped or waits in a transport call (see the remarks), and no
    /// hook of the connect or disconnect phase, nor an OnEmpty, runs. Disposes the transport once no loop is inside it.
    /// </summary>
    private void TryFinish()
    {
        bool finish, dispose;
        lock (this)
        {
            finish = !Finished && Closed && _holds == 0 && DisconnectingPhase == Phase.Done && _emptyRaising == 0
                && (!ReceiveRunning || _receiveParks > 0)
                && (!SendRunning || SendParked);
            if (finish)
            {
                Finished = true;
                SetStateLocked(SessionState.Disconnected);
            }
            dispose = Finished && !TransportDisposed && !ReceiveRunning && !SendRunning;
            if (dispose)
                TransportDisposed = true;
        }
        if (dispose)
            _transport.Dispose();
        if (!finish)
            return;
        if (HooksStarted)
            RunHook(HookKind.Other, 0, static (e, _) => e._host.EngineDisconnected());
        _host.EngineReleased();
        TaskCompletionSource? completion;
        lock (this)
        {
            Completed = true;
            completion = _side?.Completion;
        }
        completion?.TrySetResult();
    }

    /// <summary>
    /// Marks <paramref name="loop"/> as waiting in a transport call that did not complete at once. Called after the call
    /// started: if the close came in between, the finish it attempted skipped this loop, so it is attempted again.
    /// </summary>
    private void Park(Loops loop)
    {
        bool closed;
        lock (this)
        {
            if (loop == Loops.Receive)
                _receiveParks++;
            else
                SendParked = true;
            closed = Closed;
        }
        if (closed)
            TryFinish();
    }

    /// <summary>The transport call of <paramref name="loop"/> returned; the loop runs engine code again.</summary>
    private void Unpark(Loops loop)
    {
        lock (this)
        {
            if (loop == Loops.Receive)
                _receiveParks--;
            else
                SendParked = false;
        }
    }

    private void OnTransportError(SocketError error)
    {
        if (Closed)
            return;
        if (State == SessionState.Connected && !SocketErrors.IsQuiet(error))
            RunHook(HookKind.Other, error, static (e, error) => e._host.EngineError(error));
        Abort(DisconnectReason.Error);
    }

    /// <summary>Raises a hook the engine's own code calls (see <see cref="Hooks"/> for the rule on exceptions).</summary>
    private bool RunHook<TArg>(HookKind kind, TArg arg, Action<StreamSessionEngine, TArg> hook) => Hooks.Run(this, kind, arg, hook, s_hookFailed);

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
}
