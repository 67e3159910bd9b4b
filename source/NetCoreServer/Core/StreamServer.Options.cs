namespace NetCoreServer;

// The options of every stream server; sessions read theirs when created. A Unix-socket server refuses the TCP ones.
public abstract partial class StreamServer
{
    /// <summary>Length of the pending-connections queue passed to listen (default 1024).</summary>
    public int OptionAcceptorBacklog { get; set; } = 1024;

    /// <summary>When listening on an IPv6 address, also accept IPv4 connections (default false).</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionDualMode
    {
        get => _dualMode;
        set => _dualMode = TcpOnly(value);
    }

    private bool _dualMode;

    /// <summary>Enable SO_KEEPALIVE on accepted sockets (default false).</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionKeepAlive
    {
        get => _keepAlive;
        set => _keepAlive = TcpOnly(value);
    }

    private bool _keepAlive;

    /// <summary>Seconds of idleness before the first keep-alive probe; -1 (default) keeps the system value.</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public int OptionTcpKeepAliveTime
    {
        get => _tcpKeepAliveTime;
        set => _tcpKeepAliveTime = TcpOnly(value);
    }

    private int _tcpKeepAliveTime = -1;

    /// <summary>Seconds between keep-alive probes; -1 (default) keeps the system value.</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public int OptionTcpKeepAliveInterval
    {
        get => _tcpKeepAliveInterval;
        set => _tcpKeepAliveInterval = TcpOnly(value);
    }

    private int _tcpKeepAliveInterval = -1;

    /// <summary>Unanswered keep-alive probes before the connection is dropped; -1 (default) keeps the system value.</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public int OptionTcpKeepAliveRetryCount
    {
        get => _tcpKeepAliveRetryCount;
        set => _tcpKeepAliveRetryCount = TcpOnly(value);
    }

    private int _tcpKeepAliveRetryCount = -1;

    /// <summary>Disable Nagle's algorithm on accepted sockets (default false).</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionNoDelay
    {
        get => _noDelay;
        set => _noDelay = TcpOnly(value);
    }

    private bool _noDelay;

    /// <summary>Set SO_REUSEADDR on the listening socket (default false).</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionReuseAddress
    {
        get => _reuseAddress;
        set => _reuseAddress = TcpOnly(value);
    }

    private bool _reuseAddress;

    /// <summary>Set SO_EXCLUSIVEADDRUSE on the listening socket (Windows only; ignored elsewhere; default false).</summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionExclusiveAddressUse
    {
        get => _exclusiveAddressUse;
        set => _exclusiveAddressUse = TcpOnly(value);
    }

    private bool _exclusiveAddressUse;

    /// <summary>Initial receive buffer size of new sessions in bytes (default 8192); see <see cref="StreamConnection.OptionReceiveBufferSize"/>.</summary>
    public int OptionReceiveBufferSize { get; set; } = 8192;

    /// <summary>Send chunk size of new sessions in bytes (default 8192); see <see cref="StreamConnection.OptionSendBufferSize"/>.</summary>
    public int OptionSendBufferSize { get; set; } = 8192;

    /// <summary>
    /// Idle timeout of new sessions (default <see cref="System.TimeSpan.Zero"/>: none); a session receiving nothing for this
    /// long is disconnected with <see cref="DisconnectReason.Timeout"/>. See <see cref="StreamConnection.OptionIdleTimeout"/>.
    /// </summary>
    public System.TimeSpan OptionIdleTimeout { get; set; }

    /// <summary>
    /// Serve new sessions from this many of the library's own epoll event loops (threads, shared by every server and
    /// client in the process that asks for them; sessions are spread over them round robin) instead of the runtime's
    /// socket engine. Linux only (ignored elsewhere); TCP, TLS and Unix sockets, and the HTTP and WebSocket servers
    /// above them. Default 0: the runtime's engine and the thread pool.
    /// </summary>
    /// <remarks>
    /// Each loop waits in its own epoll set and makes every read and write of its sockets itself, the way a C epoll
    /// server does, so a round trip costs no zero-byte peek and no hand-off between threads. The price: the session's
    /// hooks (<c>OnReceived</c> and the others raised by its I/O) run on the loop's thread, so a hook that blocks stalls
    /// every session of that loop until it returns. Keep hooks short, and move blocking work (database calls, file I/O,
    /// <c>Task.Wait</c>) elsewhere. No member of this library waits on a loop's thread: the synchronous sends (<c>Send</c>,
    /// <c>SendResponse</c>, the WebSocket <c>SendText</c>/<c>SendBinary</c>/<c>Close</c>, ...) queue and return, and
    /// <c>Connect</c>/<c>Receive</c> throw, naming their asynchronous twins. Failures a loop catches are reported on
    /// <see cref="EventLoops.Error"/>. One loop per core is a good start; fewer leave cores to the rest of the process.
    /// </remarks>
    /// <exception cref="System.ArgumentOutOfRangeException">The value is negative.</exception>
    public int OptionEventLoops
    {
        get => _eventLoops;
        set
        {
            System.ArgumentOutOfRangeException.ThrowIfNegative(value);
            _eventLoops = value;
        }
    }

    private int _eventLoops;

    /// <summary>True for a Unix-domain-socket server, whose sockets have no TCP options and peers no address.</summary>
    private protected virtual bool UnixSocket => false;

    /// <summary>Passes a TCP option's new value through, or refuses it on a Unix-socket server (silently ignoring it would hide a mistake).</summary>
    private protected T TcpOnly<T>(T value, [System.Runtime.CompilerServices.CallerMemberName] string option = "")
    {
        if (UnixSocket)
            throw new System.NotSupportedException($"{option} is a TCP option; a Unix domain socket server ({GetType().Name}) has no use for it.");
        return value;
    }

    // The options new sessions share until one of them writes its own (see StreamConnection.WritableLimits).
    private Core.EngineOptions? _sessionLimits;

    /// <summary>The options a new session starts with: the server's current session options, one instance shared by every session made while they stay the same.</summary>
    /// <exception cref="System.ArgumentOutOfRangeException"><see cref="OptionIdleTimeout"/> is negative.</exception>
    internal Core.EngineOptions SessionLimits()
    {
        var receive = OptionReceiveBufferSize;
        var send = OptionSendBufferSize;
        var idle = OptionIdleTimeout;
        var shared = System.Threading.Volatile.Read(ref _sessionLimits);
        if (shared != null && shared.ReceiveBufferSize == receive && shared.SendBufferSize == send && shared.IdleTimeout == idle)
            return shared;
        // The session's own OptionIdleTimeout refuses a negative value; so does the server's default for it.
        System.ArgumentOutOfRangeException.ThrowIfLessThan(idle, System.TimeSpan.Zero, nameof(OptionIdleTimeout));
        shared = new Core.EngineOptions { Owner = this, ReceiveBufferSize = receive, SendBufferSize = send, IdleTimeout = idle }.Share();
        System.Threading.Volatile.Write(ref _sessionLimits, shared);
        return shared;
    }
}
