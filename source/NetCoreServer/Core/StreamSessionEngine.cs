using System;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// The one stream-session engine shared by every stream transport (TCP, Unix sockets, TLS): it owns the
/// receive loop, the send queue, the state machine, statistics, limits and teardown. A transport supplies
/// only I/O; a host (server session or client) turns engine callbacks into the public hooks.
/// </summary>
/// <remarks>
/// Teardown contract: <see cref="IStreamSessionHost.EngineDisconnecting"/> and then
/// <see cref="IStreamSessionHost.EngineDisconnected"/> run exactly once each; the latter only after the socket
/// is closed and both loops have stopped, so no <c>OnReceived</c> or <c>OnSent</c> can follow it.
/// </remarks>
internal sealed partial class StreamSessionEngine : IThreadPoolWorkItem
{
    // Ordinary ways for a connection to end; NetCoreServer does not report these through OnError either.
    private static readonly SocketError[] s_quietErrors =
    {
        SocketError.ConnectionAborted, SocketError.ConnectionRefused, SocketError.ConnectionReset,
        SocketError.OperationAborted, SocketError.Shutdown, SocketError.NotConnected,
    };

    [ThreadStatic]
    private static StreamSessionEngine? t_sendCallbackOwner;

    // The engine whose OnDisconnecting this thread runs during a graceful disconnect: as in NetCoreServer, that hook
    // may still send (a goodbye), and the data goes out before the sending side shuts down.
    [ThreadStatic]
    private static StreamSessionEngine? t_disconnectingHookOwner;

    private readonly IStreamTransport _transport;
    private readonly IStreamSessionHost _host;
    private readonly EngineOptions _options;
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _state;
    private int _reason;
    private int _shutdownStarted;
    private int _closed;
    private int _finished;
    private volatile bool _receiveRunning;
    private Timer? _disconnectTimer;

    public StreamSessionEngine(IStreamTransport transport, IStreamSessionHost host, EngineOptions options)
    {
        _transport = transport;
        _host = host;
        _options = options;
        _queue = new SendQueue(options);
    }

    public SessionState State => (SessionState)Volatile.Read(ref _state);

    public bool IsConnected => State == SessionState.Connected;

    /// <summary>
    /// True while connected, and also inside this connection's OnDisconnecting during a graceful disconnect, until
    /// the sending side shuts down.
    /// </summary>
    public bool AcceptsSends => State switch
    {
        SessionState.Connected => true,
        SessionState.Disconnecting => t_disconnectingHookOwner == this && Volatile.Read(ref _shutdownStarted) == 0 && Volatile.Read(ref _closed) == 0,
        _ => false,
    };

    /// <summary>Why the connection ended (the first reason recorded).</summary>
    public DisconnectReason Reason => (DisconnectReason)Volatile.Read(ref _reason);

    /// <summary>Completes after <see cref="IStreamSessionHost.EngineDisconnected"/> has returned.</summary>
    public Task Completion => _completion.Task;

    public IStreamTransport Transport => _transport;

    /// <summary>Marks the connection live. The host raises its connect hooks after this and then calls <see cref="StartReceiving"/>.</summary>
    public bool Activate() => Interlocked.CompareExchange(ref _state, (int)SessionState.Connected, (int)SessionState.Connecting) == (int)SessionState.Connecting;

    /// <summary>
    /// Starts a graceful disconnect: no new sends are accepted, what was accepted is delivered, the sending side
    /// is shut down and the socket closes when the peer ends its stream or <see cref="EngineOptions.DisconnectTimeout"/> passes.
    /// </summary>
    /// <returns>False when a disconnect had already started.</returns>
    public bool Disconnect(DisconnectReason reason)
    {
        if (!EnterDisconnecting(reason, graceful: true))
            return false;
        bool drained;
        lock (_sendLock)
            drained = !_sendRunning && _queue.IsEmpty;
        ArmDisconnectTimer();
        if (drained)
            BeginShutdown();
        return true;
    }

    /// <summary>Closes at once, dropping queued data (errors, server stop after timeout, handler failures).</summary>
    public void Abort(DisconnectReason reason)
    {
        EnterDisconnecting(reason, graceful: false);
        CloseTransport();
    }

    private bool EnterDisconnecting(DisconnectReason reason, bool graceful)
    {
        while (true)
        {
            var state = Volatile.Read(ref _state);
            if (state >= (int)SessionState.Disconnecting)
                return false;
            if (Interlocked.CompareExchange(ref _state, (int)SessionState.Disconnecting, state) != state)
                continue;
            Interlocked.CompareExchange(ref _reason, (int)reason, (int)DisconnectReason.None);
            if (state == (int)SessionState.Connected)
            {
                var previous = t_disconnectingHookOwner;
                if (graceful)
                    t_disconnectingHookOwner = this;
                try
                {
                    Invoke(static h => h.EngineDisconnecting());
                }
                finally
                {
                    t_disconnectingHookOwner = previous;
                }
            }
            return true;
        }
    }

    private void ArmDisconnectTimer()
    {
        var timeout = _options.DisconnectTimeout;
        if (timeout <= TimeSpan.Zero || timeout == Timeout.InfiniteTimeSpan)
            return;
        var timer = new Timer(static s => ((StreamSessionEngine)s!).OnDisconnectTimeout(), this, Timeout.Infinite, Timeout.Infinite);
        if (Interlocked.CompareExchange(ref _disconnectTimer, timer, null) != null)
        {
            timer.Dispose();
            return;
        }
        timer.Change(timeout, Timeout.InfiniteTimeSpan);
        if (Volatile.Read(ref _closed) != 0)
            timer.Dispose();
    }

    private void OnDisconnectTimeout()
    {
        bool undelivered;
        lock (_sendLock)
            undelivered = _sendRunning || !_queue.IsEmpty;
        if (undelivered)
            Interlocked.CompareExchange(ref _reason, (int)DisconnectReason.Timeout, (int)DisconnectReason.Local);
        CloseTransport();
    }

    /// <summary>All accepted data is out: send end of stream, then close once the peer ends too.</summary>
    private void BeginShutdown()
    {
        if (Interlocked.Exchange(ref _shutdownStarted, 1) != 0)
            return;
        _transport.ShutdownSend();
        if (!_receiveRunning)
            CloseTransport();
    }

    private void CloseTransport()
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
            return;
        Interlocked.Exchange(ref _disconnectTimer, null)?.Dispose();
        _transport.Close();
        FailQueuedSends();
        TryFinish();
    }

    private void TryFinish()
    {
        if (Volatile.Read(ref _closed) == 0 || _receiveRunning)
            return;
        lock (_sendLock)
        {
            if (_sendRunning)
                return;
        }
        if (Interlocked.Exchange(ref _finished, 1) != 0)
            return;
        Volatile.Write(ref _state, (int)SessionState.Disconnected);
        _transport.Dispose();
        Invoke(static h => h.EngineDisconnected());
        _completion.TrySetResult();
    }

    private void OnTransportError(SocketError error)
    {
        if (Volatile.Read(ref _closed) != 0)
            return;
        if (State == SessionState.Connected && Array.IndexOf(s_quietErrors, error) < 0)
            Invoke(h => h.EngineError(error));
        Abort(DisconnectReason.Error);
    }

    /// <summary>Runs a host callback; a throwing hook tears the connection down instead of killing a pool thread.</summary>
    private bool Invoke(Action<IStreamSessionHost> callback)
    {
        try
        {
            callback(_host);
            return true;
        }
        catch (Exception exception)
        {
            OnHandlerException(exception);
            return false;
        }
    }

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
