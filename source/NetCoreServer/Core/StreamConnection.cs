using System;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Core;

namespace NetCoreServer;

/// <summary>
/// What every stream connection has, whether a server session or a client, over TCP, Unix sockets or TLS:
/// sending, receiving, statistics, limits and the connection hooks. The work is done by one shared engine;
/// <see cref="TcpSession"/> and <see cref="TcpClient"/> only say how the socket is obtained.
/// </summary>
/// <remarks>
/// Threading: hooks run on I/O completion threads of the .NET thread pool, or inline on the thread that called
/// <c>Send</c>/<c>SendAsync</c>/<c>Connect</c> when the operation completed synchronously. For one connection,
/// <see cref="OnReceived"/> calls never overlap one another; <see cref="OnSent"/> may run concurrently with
/// <see cref="OnReceived"/>. <see cref="OnConnected"/> precedes every other data hook and
/// <see cref="OnDisconnected"/> follows all of them; each runs exactly once per connection.
/// </remarks>
public abstract partial class StreamConnection : IDisposable, IStreamSessionHost
{
    [ThreadStatic]
    private static StreamConnection? t_hookOwner;

    private StreamSessionEngine? _engine;

    private protected StreamConnection()
    {
        Id = Guid.NewGuid();
    }

    /// <summary>Unique identifier of this session or client.</summary>
    public Guid Id { get; }

    /// <summary>True while data can be sent and received; false from the moment a disconnect starts.</summary>
    public bool IsConnected => _engine?.IsConnected ?? false;

    /// <summary>True when no socket is open (before the first connect and after the disconnect finished).</summary>
    public bool IsSocketDisposed => _engine == null || _engine.State == SessionState.Disconnected;

    /// <summary>True after <see cref="Dispose()"/>.</summary>
    public bool IsDisposed { get; private set; }

    /// <summary>Why the last connection ended; <see cref="NetCoreServer.DisconnectReason.None"/> while it is live. Readable in <see cref="OnDisconnected"/>.</summary>
    public DisconnectReason DisconnectReason => _engine?.Reason ?? DisconnectReason.None;

    /// <summary>Options, limits and statistics shared with the engine.</summary>
    private protected EngineOptions Limits { get; } = new();

    /// <summary>The engine of the current (or last) connection.</summary>
    private protected StreamSessionEngine? Engine => _engine;

    /// <summary>True when the calling thread is inside a hook of any connection.</summary>
    internal static bool IsInsideAnyHook => t_hookOwner != null;

    /// <summary>True when the calling thread is inside one of this connection's hooks (waiting there on the connection itself would deadlock).</summary>
    private protected bool IsInsideOwnHook => t_hookOwner == this;

    /// <summary>
    /// Wires a connected transport to a new engine and raises the connect hooks in NetCoreServer's order:
    /// OnConnecting, OnConnected, OnEmpty. The receive loop starts after them, so no OnReceived precedes OnConnected.
    /// </summary>
    /// <param name="transport">The connected transport.</param>
    /// <param name="startReceiving">Start the receive loop after the connect hooks.</param>
    /// <param name="raiseConnecting">False when OnConnecting already ran (clients raise it before connecting).</param>
    /// <param name="onAttached">Runs once the new engine is current (clients clear their connecting flag there).</param>
    /// <param name="synchronous">True for a blocking connect: a handshake then runs on the calling thread.</param>
    private protected StreamSessionEngine Attach(IStreamTransport transport, bool startReceiving, bool raiseConnecting = true, Action? onAttached = null, bool synchronous = false)
    {
        var engine = new StreamSessionEngine(transport, this, Limits);
        _engine = engine;
        onAttached?.Invoke();
        var previous = EnterHook();
        try
        {
            if (raiseConnecting)
                NotifyConnecting();
            if (!engine.Activate())
                return engine;
            NotifyConnected();
        }
        catch (Exception exception)
        {
            HandleHookException(engine, exception);
            return engine;
        }
        finally
        {
            t_hookOwner = previous;
        }
        if (engine.Transport is IHandshakingTransport handshaking)
        {
            var handshake = HandshakeAsync(engine, handshaking, startReceiving);
            Ready = handshake;
            if (synchronous)
                handshake.GetAwaiter().GetResult();
            return engine;
        }
        Ready = Task.CompletedTask;
        StartDataFlow(engine, startReceiving);
        return engine;
    }

    /// <summary>Completes when the current connection is ready for data: at once for plain sockets, after OnHandshaked (or a failed handshake) for TLS.</summary>
    private protected Task Ready { get; private set; } = Task.CompletedTask;

    /// <summary>Connected (and, for TLS, handshaked): raise OnEmpty and start reading.</summary>
    private void StartDataFlow(StreamSessionEngine engine, bool startReceiving)
    {
        if (!engine.IsConnected)
            return;
        var previous = EnterHook();
        try
        {
            if (engine.BytesPending == 0 && engine.BytesSending == 0)
                OnEmpty();
        }
        catch (Exception exception)
        {
            HandleHookException(engine, exception);
            return;
        }
        finally
        {
            t_hookOwner = previous;
        }
        if (startReceiving)
            engine.StartReceiving();
    }

    /// <summary>
    /// TLS order (NetCoreServer's): OnConnected, OnHandshaking, handshake, OnHandshaked, OnEmpty, then data. Sends
    /// queued before the handshake finishes wait in the queue; a failed handshake closes the connection with
    /// <see cref="NetCoreServer.DisconnectReason.HandshakeFailed"/>.
    /// </summary>
    private async Task HandshakeAsync(StreamSessionEngine engine, IHandshakingTransport transport, bool startReceiving)
    {
        if (!RunHook(engine, static c => c.NotifyHandshaking()))
            return;
        var error = await transport.HandshakeAsync().ConfigureAwait(false);
        if (error != SocketError.Success)
        {
            if (engine.IsConnected)
                RunHook(engine, c => c.OnError(error));
            engine.Abort(NetCoreServer.DisconnectReason.HandshakeFailed);
            return;
        }
        if (!RunHook(engine, static c => c.NotifyHandshaked()))
            return;
        StartDataFlow(engine, startReceiving);
    }

    private bool RunHook(StreamSessionEngine engine, Action<StreamConnection> hook)
    {
        var previous = EnterHook();
        try
        {
            hook(this);
            return true;
        }
        catch (Exception exception)
        {
            HandleHookException(engine, exception);
            return false;
        }
        finally
        {
            t_hookOwner = previous;
        }
    }

    /// <summary>Raises OnHandshaking (TLS connections; the server's hook too for sessions).</summary>
    private protected virtual void NotifyHandshaking()
    {
    }

    /// <summary>Raises OnHandshaked (TLS connections; the server's hook too for sessions).</summary>
    private protected virtual void NotifyHandshaked()
    {
    }

    /// <summary>Raises OnConnecting (and the server's hook for sessions).</summary>
    private protected virtual void NotifyConnecting() => OnConnecting();

    /// <summary>Raises OnConnected (and the server's hook for sessions).</summary>
    private protected virtual void NotifyConnected() => OnConnected();

    /// <summary>Raises OnDisconnecting (and the server's hook for sessions).</summary>
    private protected virtual void NotifyDisconnecting() => OnDisconnecting();

    /// <summary>Raises OnDisconnected (and the server's hook and unregistration for sessions).</summary>
    private protected virtual void NotifyDisconnected() => OnDisconnected();

    /// <summary>Adds traffic to server-wide counters.</summary>
    private protected virtual void NotifyCounted(long received, long sent)
    {
    }

    /// <summary>Starts a graceful disconnect of the current connection.</summary>
    private protected bool DisconnectEngine(DisconnectReason reason) => _engine?.Disconnect(reason) ?? false;

    private static StreamConnection? EnterHook(StreamConnection owner)
    {
        var previous = t_hookOwner;
        t_hookOwner = owner;
        return previous;
    }

    private StreamConnection? EnterHook() => EnterHook(this);

    private void HandleHookException(StreamSessionEngine engine, Exception exception)
    {
        try
        {
            OnHandlerException(exception);
        }
        catch (Exception)
        {
            // Nothing more to report to.
        }
        engine.Abort(NetCoreServer.DisconnectReason.HandlerException);
    }

    void IStreamSessionHost.EngineReceived(byte[] buffer, int offset, int size)
    {
        var previous = EnterHook();
        try
        {
            OnReceived(buffer, offset, size);
        }
        finally
        {
            t_hookOwner = previous;
        }
    }

    void IStreamSessionHost.EngineSent(long sent, long pending)
    {
        var previous = EnterHook();
        try
        {
            OnSent(sent, pending);
        }
        finally
        {
            t_hookOwner = previous;
        }
    }

    void IStreamSessionHost.EngineEmpty()
    {
        var previous = EnterHook();
        try
        {
            OnEmpty();
        }
        finally
        {
            t_hookOwner = previous;
        }
    }

    void IStreamSessionHost.EngineError(SocketError error)
    {
        var previous = EnterHook();
        try
        {
            OnError(error);
        }
        finally
        {
            t_hookOwner = previous;
        }
    }

    void IStreamSessionHost.EngineHandlerException(Exception exception) => OnHandlerException(exception);

    void IStreamSessionHost.EngineDisconnecting()
    {
        var previous = EnterHook();
        try
        {
            NotifyDisconnecting();
        }
        finally
        {
            t_hookOwner = previous;
        }
    }

    void IStreamSessionHost.EngineDisconnected()
    {
        var previous = EnterHook();
        try
        {
            NotifyDisconnected();
        }
        finally
        {
            t_hookOwner = previous;
        }
    }

    void IStreamSessionHost.EngineCounted(long received, long sent) => NotifyCounted(received, sent);

    /// <summary>Disposes the connection; see <see cref="Dispose(bool)"/>.</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Disconnects (when <paramref name="disposingManagedResources"/> is true) and marks the object disposed.</summary>
    /// <param name="disposingManagedResources">True when called from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposingManagedResources)
    {
        if (IsDisposed)
            return;
        if (disposingManagedResources)
            DisposeConnection();
        IsDisposed = true;
    }

    /// <summary>What Dispose does to the live connection: sessions disconnect, clients disconnect and wait.</summary>
    private protected virtual void DisposeConnection() => DisconnectEngine(NetCoreServer.DisconnectReason.Local);
}
