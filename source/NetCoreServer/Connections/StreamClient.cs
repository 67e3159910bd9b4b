using System;
using System.Collections.Generic;
using System.Net;
using System.Runtime.CompilerServices;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Connections;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Framing;
using NetCoreServer.Protocols;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// A client of one stream connection (TCP, TLS, Unix socket): connecting, reconnecting and disconnecting.
/// Sending, receiving, limits and hooks come from <see cref="StreamConnection"/>. Hook order: OnConnecting,
/// OnConnected, OnEmpty, data hooks, OnDisconnecting, OnDisconnected. A failed connect raises OnError (unless the
/// failure is ordinary, such as refused) and then OnDisconnected, so reconnecting from OnDisconnected covers both.
/// </summary>
public abstract class StreamClient : StreamConnection, IProtocolClient
{
    // Connecting (DNS, the connect, its timeout and cancel); this class raises the hooks around it and starts the engine.
    private readonly SocketConnector _connector = new();
    // The disconnect hooks are user code, waited for because NetCoreServer runs them inside the call; bounded, so that
    // a hook waiting for the blocked caller's own thread (a UI Invoke) stalls it instead of hanging it.
    private static readonly TimeSpan s_hookWait = TimeSpan.FromSeconds(30);
    private Task<bool> _connectTask = Task.FromResult(false);
    private Task _ready = Task.CompletedTask;
    private TimeSpan _connectTimeout;

    /// <summary>Creates a client for any endpoint.</summary>
    /// <param name="target">The endpoint, and the address and port as given by the user.</param>
    private protected StreamClient(EndpointSpec target)
        : base(shared: null)
    {
        (Endpoint, Address, Port) = target;
        OptionStopReadingWhenUnwritable = false;
    }

    /// <summary>The address as given to the constructor; for a Unix-socket client, the path of the server's socket file.</summary>
    public string Address { get; }

    /// <summary>The port as given to the constructor; 0 for a Unix-socket client.</summary>
    public int Port { get; }

    /// <summary>The server endpoint.</summary>
    public EndPoint Endpoint { get; }

    /// <summary>
    /// The socket of the current (or last) connection. For an address or socket-file endpoint the new socket is set
    /// before OnConnecting runs (not connected yet), as in NetCoreServer; for a host name, once connected. Null before the
    /// first connect.
    /// </summary>
    public Socket? Socket { get; private set; }

    /// <summary>True while a connect is under way.</summary>
    public bool IsConnecting => _connector.IsConnecting;

    /// <summary>
    /// How long a connect may take before it is abandoned: the attempt then fails with <c>OnError(TimedOut)</c> and
    /// OnDisconnected, as any failed connect. Covers the socket connect (for a host name, each address tried); the TLS
    /// handshake has its own <see cref="SslContext.HandshakeTimeout"/>. Default <see cref="TimeSpan.Zero"/>: the system's
    /// own limit (on Linux about two minutes of SYN retries against a silent host), as in NetCoreServer.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public TimeSpan OptionConnectTimeout
    {
        get => _connectTimeout;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, TimeSpan.Zero);
            _connectTimeout = value;
        }
    }

    /// <summary>
    /// The clock of this client's timeouts: connect, TLS handshake, WebSocket upgrade, keep-alive, close and message,
    /// idle, disconnect, and the request timeout of <see cref="HttpClientEx"/>. Default <see cref="TimeProvider.System"/>; a test sets a fake one (FakeTimeProvider) and
    /// advances it instead of waiting. Set it before <c>Connect</c>: it applies to the next connection.
    /// </summary>
    /// <exception cref="ArgumentNullException">The value is null.</exception>
    public TimeProvider OptionTimeProvider
    {
        get => _connector.Time;
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            _connector.Time = value;
            WritableLimits.Time = value == TimeProvider.System ? null : value;
        }
    }

    /// <summary>
    /// Serve this client's connection from one of the library's own epoll event loops instead of the runtime's socket
    /// engine (Linux only; ignored elsewhere). Default 0: the runtime's engine. See
    /// <see cref="StreamServer.OptionEventLoops"/> for what it changes: hooks then run on the loop's thread.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public int OptionEventLoops
    {
        get => _eventLoops;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            _eventLoops = value;
        }
    }

    private int _eventLoops;

    /// <summary>Creates the socket to connect with; override to customise it. Not used for host-name endpoints.</summary>
    /// <returns>A new socket for <see cref="Endpoint"/>.</returns>
    protected virtual Socket CreateSocket()
        => new(Endpoint.AddressFamily, SocketType.Stream, Endpoint is UnixDomainSocketEndPoint ? ProtocolType.Unspecified : ProtocolType.Tcp);

    /// <summary>
    /// Connects synchronously. Like NetCoreServer, it does not start receiving: call <see cref="StreamConnection.ReceiveAsync"/>
    /// to get <see cref="StreamConnection.OnReceived"/> calls, or use the blocking <c>Receive</c>. On an event loop's
    /// thread (a hook with <c>OptionEventLoops</c>) the loop is handed to another thread first (see
    /// <see cref="EventLoops.HandoffThreshold"/>): the connect, and a TLS handshake with a server of the same loop, go on.
    /// </summary>
    /// <returns>True when connected.</returns>
    public virtual bool Connect()
    {
        if (!TryBeginConnect())
            return false;
        EventLoop.HandOffBeforeWaiting();
        Socket? socket = null;
        try
        {
            socket = CreateSocketBeforeConnecting();
            OnConnecting();
            socket = _connector.Connect(socket, Endpoint, _connectTimeout);
        }
        catch (SocketException e)
        {
            socket?.Dispose();
            ConnectFailed(e.SocketErrorCode, raiseDisconnecting: true);
            return false;
        }
        catch (Exception)
        {
            socket?.Dispose();
            _connector.End();
            throw;
        }
        return Connected(socket, startReceiving: false);
    }

    /// <summary>Starts connecting and returns at once; on success the receive loop starts and OnConnected runs.</summary>
    /// <returns>True when the attempt started (not that it succeeded); see <see cref="ConnectAndWaitAsync"/>.</returns>
    public virtual bool ConnectAsync()
    {
        if (!TryBeginConnect())
            return false;
        Socket? socket = null;
        try
        {
            socket = CreateSocketBeforeConnecting();
            OnConnecting();
        }
        catch (SocketException e)
        {
            socket?.Dispose();
            _connectTask = Task.FromResult(false);
            ConnectFailed(e.SocketErrorCode, raiseDisconnecting: false);
            return true;
        }
        catch (Exception)
        {
            socket?.Dispose();
            _connector.End();
            throw;
        }
        _connectTask = ConnectCoreAsync(socket);
        return true;
    }

    /// <summary>Connects asynchronously and completes with the outcome. Cancelling abandons the attempt.</summary>
    /// <param name="cancellationToken">Cancels the connect.</param>
    /// <returns>True when connected.</returns>
    public async Task<bool> ConnectAndWaitAsync(CancellationToken cancellationToken = default)
    {
        if (!ConnectAsync())
            return IsConnected;
        var task = _connectTask;
        using (cancellationToken.Register(static s => ((SocketConnector)s!).Abandon(), _connector))
            return await task.ConfigureAwait(false);
    }

    /// <summary>
    /// Disconnects gracefully and returns after OnDisconnected ran, as NetCoreServer's does: queued data goes out, the
    /// sending side shuts down, the socket closes (bounded by <see cref="StreamConnection.OptionDisconnectTimeout"/>),
    /// then OnDisconnecting and OnDisconnected run (a reconnect from OnDisconnected starts before this returns). A connect
    /// under way is cancelled. When a disconnect is already under way (the server closed), it waits for that one.
    /// </summary>
    /// <remarks>
    /// Unlike <see cref="DisconnectAndWaitAsync"/> it does not wait for the server to end its side (that server may need
    /// this thread's pool). Inside one of this client's hooks it starts the disconnect and returns without waiting: the
    /// disconnect hooks then run after the calling hook returns. On an event loop's thread the loop is handed to another
    /// thread before it waits. The hooks are waited for at most 30 s after the close, so that one waiting for this very
    /// thread (a UI Invoke) stalls the caller, not forever.
    /// </remarks>
    /// <returns>False if neither connected nor connecting, or if a disconnect had already started.</returns>
    public virtual bool Disconnect()
    {
        if (IsConnecting)
        {
            _connector.Abandon();
            return true;
        }
        var engine = Engine;
        if (engine == null)
            return false;
        var started = engine.Disconnect(NetCoreServer.DisconnectReason.Local, linger: false);
        WaitDisconnected(engine, OptionDisconnectTimeout);
        return started;
    }

    /// <summary>Same as <see cref="Disconnect"/> (NetCoreServer's asynchronous variant is synchronous too).</summary>
    /// <returns>False if neither connected nor connecting.</returns>
    public virtual bool DisconnectAsync() => Disconnect();

    /// <summary>Starts a graceful disconnect and completes after OnDisconnected has run.</summary>
    /// <returns>A task that completes when the connection is closed.</returns>
    public Task DisconnectAndWaitAsync()
    {
        var engine = Engine;
        if (engine == null)
            return Task.CompletedTask;
        engine.Disconnect(NetCoreServer.DisconnectReason.Local);
        return engine.Completion;
    }

    /// <summary>Closes the current connection at once, dropping what is queued (a protocol gave up on it: its state is unknown).</summary>
    /// <param name="reason">Why.</param>
    internal void Abort(DisconnectReason reason) => Engine?.Abort(reason);

    void IProtocolClient.Abort(DisconnectReason reason) => Abort(reason);

    /// <summary>Disconnects, then connects synchronously; on an event loop's thread as <see cref="Disconnect"/> and <see cref="Connect"/> are.</summary>
    /// <returns>False if not connected or if the new connect failed.</returns>
    public virtual bool Reconnect() => Disconnect() && Connect();

    /// <summary>
    /// Disconnects, then starts an asynchronous connect. Where <see cref="Disconnect"/> does not wait (inside this
    /// client's hooks) the connect starts once the disconnect has completed.
    /// </summary>
    /// <returns>False if not connected or the connect could not start.</returns>
    public virtual bool ReconnectAsync()
    {
        var engine = Engine;
        if (!DisconnectAsync())
            return false;
        if (engine == null || engine.Completion.IsCompleted)
            return ConnectAsync();
        // The connect (and its OnConnecting) runs on the pool after OnDisconnected, not on the thread that asked.
        engine.Completion.ContinueWith(static (_, client) => ((StreamClient)client!).ConnectAsync(), this,
            CancellationToken.None, TaskContinuationOptions.RunContinuationsAsynchronously, TaskScheduler.Default);
        return true;
    }

    private protected override void DisposeConnection() => Disconnect();

    /// <summary>
    /// Blocks until <paramref name="engine"/> has finished, OnDisconnected included, as NetCoreServer's synchronous
    /// teardown has when its call returns; returns at once inside this client's hooks (the teardown needs them to
    /// return). On an event loop's thread the loop is handed on first (the teardown may need that loop). Past
    /// <paramref name="closeWait"/> the socket is closed here.
    /// </summary>
    /// <param name="engine">The connection being ended (or about to be: a WebSocket close handshake under way).</param>
    /// <param name="closeWait">How long the close may take: the disconnect timeout, plus the close timeout for WebSocket.</param>
    private protected void WaitDisconnected(StreamSessionEngine engine, TimeSpan closeWait)
    {
        if (IsInsideOwnHook)
            return;
        if (!engine.Completion.IsCompleted)
            EventLoop.HandOffBeforeWaiting();
        if (engine.Completion.Wait(closeWait))
            return;
        // The engine's timers would close it by now, but they run on the thread pool, which callers blocked here can
        // leave without a free thread: close here, then wait for the hooks.
        if (engine.IsConnected)
            engine.Abort(NetCoreServer.DisconnectReason.Timeout);
        else
            engine.ExpireDisconnect();
        engine.Completion.Wait(s_hookWait);
    }

    private bool TryBeginConnect() => _connector.TryBegin(idle: IsSocketDisposed);

    /// <summary>
    /// For an address or socket-file endpoint, creates and prepares the socket and publishes it as <see cref="Socket"/>
    /// before OnConnecting runs, as NetCoreServer does (so OnConnecting may set socket options); null for a host name,
    /// whose socket depends on the address the name resolves to.
    /// </summary>
    private Socket? CreateSocketBeforeConnecting()
    {
        if (Endpoint is DnsEndPoint)
            return null;
        var socket = CreateSocket();
        try
        {
            PrepareSocket(socket);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
        Socket = socket;
        return socket;
    }

    private async Task<bool> ConnectCoreAsync(Socket? created)
    {
        var (result, socket) = await _connector.ConnectAsync(created, Endpoint, _connectTimeout).ConfigureAwait(false);
        if (!result.Succeeded || socket == null)
        {
            socket?.Dispose();
            ConnectFailed(result.Succeeded ? SocketError.NotConnected : result.Error, raiseDisconnecting: false);
            return false;
        }
        if (!Connected(socket, startReceiving: true))
            return false;
        // For TLS, "connected" means handshaked: the task completes after OnHandshaked.
        await _ready.ConfigureAwait(false);
        return IsConnected;
    }

    /// <summary>Prepares a new socket before it connects (TCP sets dual mode).</summary>
    /// <param name="socket">The socket about to connect.</param>
    private protected virtual void PrepareSocket(Socket socket)
    {
    }

    private bool Connected(Socket socket, bool startReceiving)
    {
        Socket = socket;
        IStreamTransport transport;
        try
        {
            transport = CreateTransport(socket);
        }
        catch (SocketException e)
        {
            // An option the socket refused (the factory sets them before it makes anything).
            socket.Dispose();
            ConnectFailed(e.SocketErrorCode, raiseDisconnecting: false);
            return false;
        }
        var engine = CreateEngine(transport);
        _connector.End();
        _ready = engine.StartConnected(startReceiving);
        // The synchronous Connect returns after the TLS handshake, as NetCoreServer's does.
        if (!startReceiving)
            _ready.GetAwaiter().GetResult();
        return engine.IsConnected;
    }

    /// <summary>The TCP options the transport factory sets on a connected socket; null (none) but for TCP clients.</summary>
    private protected virtual TcpOptions? TcpOptions => null;

    /// <summary>The transport for a connected socket (see <see cref="TransportFactory"/>); TLS for secure clients.</summary>
    /// <param name="socket">The connected socket.</param>
    /// <returns>The transport the engine will use.</returns>
    private protected virtual IStreamTransport CreateTransport(Socket socket) => TransportFactory.Create(socket, OptionEventLoops, TcpOptions);

    private void ConnectFailed(SocketError error, bool raiseDisconnecting)
    {
        _connector.End();
        if (!IsQuiet(error))
            OnError(error);
        if (raiseDisconnecting)
            OnDisconnecting();
        OnDisconnected();
    }

    private bool IsQuiet(SocketError error)
        => SocketErrors.IsQuiet(error)
            // A Unix socket whose server has stopped has no file: ENOENT is that transport's "refused".
            || (error == SocketError.AddressNotAvailable && Endpoint is UnixDomainSocketEndPoint);

    /// <summary>
    /// The whole messages this client receives from the first <c>MoveNextAsync</c> on (set <see cref="StreamConnection.Framing"/>
    /// first; a WebSocket client once upgraded, <c>OnWsConnected</c>), each a copy, in order, until the connection ends or <paramref name="cancellationToken"/> is cancelled;
    /// <c>OnReceivedMessage</c> still runs for each. At most <paramref name="capacity"/> wait unread: then the client
    /// reads nothing more from the socket until the loop takes one. One enumeration at a time.
    /// </summary>
    /// <param name="capacity">Messages that may wait unread. Default 64.</param>
    /// <param name="cancellationToken">Ends the enumeration (with <see cref="OperationCanceledException"/>).</param>
    /// <returns>The messages.</returns>
    /// <exception cref="InvalidOperationException">Neither framing nor an upgraded WebSocket, or another enumeration runs.</exception>
    public async IAsyncEnumerable<byte[]> ReceiveMessagesAsync(int capacity = 64, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(capacity);
        var protocol = Protocol as IMessageSource ?? throw new InvalidOperationException("set Framing (or wait for a WebSocket's upgrade) before receiving messages");
        var inbox = protocol.OpenInbox(this, capacity);
        try
        {
            await foreach (var message in inbox.ReadAllAsync(cancellationToken).ConfigureAwait(false))
                yield return message;
        }
        finally
        {
            protocol.CloseInbox(inbox);
        }
    }
}
