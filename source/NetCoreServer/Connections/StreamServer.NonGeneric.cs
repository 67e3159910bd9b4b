using System;
using System.Diagnostics.Metrics;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading;
using NetCoreServer.Connections;
using NetCoreServer.Diagnostics;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// Any stream server (TCP, TLS, Unix socket) whatever its session type: the options its sessions start with, the byte
/// counters they add to, and the server hooks they raise. Derive from <see cref="TcpServer"/>, <see cref="SslServer"/>
/// or <see cref="UdsServer"/>; this type's constructor is not reachable outside the library.
/// </summary>
/// <remarks>
/// Sessions are not generic (NetCoreServer's <c>TcpSession(TcpServer)</c>), so this is how a session reaches its
/// <see cref="StreamServer{TSession}"/>.
/// </remarks>
public abstract class StreamServer : IEngineOwner, IMetricsOwner
{
    private long _bytesSent;
    private long _bytesReceived;

    private protected StreamServer()
    {
    }

    /// <summary>Bytes sent by all sessions since the server started.</summary>
    public long BytesSent => Interlocked.Read(ref _bytesSent);

    /// <summary>Bytes received by all sessions since the server started.</summary>
    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    /// <summary>
    /// Carries every multicast of this server elsewhere (see <see cref="IMulticastRelay"/>); null (the default) for none.
    /// Set by a backplane when it attaches; may be changed at any time.
    /// </summary>
    public IMulticastRelay? MulticastRelay { get; set; }

    /// <summary>
    /// Queues <paramref name="payload"/> on this server's sessions only, without calling <see cref="MulticastRelay"/>, for
    /// bytes this process trusts (a relay delivers bytes from outside with <see cref="MulticastRelayed"/>). <see cref="MulticastKind.Text"/> and <see cref="MulticastKind.Binary"/>
    /// are framed once as WebSocket messages on a WebSocket server and sent raw elsewhere. Copied once, as <c>Multicast</c>.
    /// </summary>
    /// <param name="kind">How to send the payload.</param>
    /// <param name="payload">The bytes.</param>
    /// <param name="filter">Sessions to reach (e.g. a group's members), called under the multicast lock, so it must be
    /// quick and take no lock of a session; null for every session that receives multicasts.</param>
    /// <returns>False if the server is not started.</returns>
    public abstract bool MulticastLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter = null);

    /// <summary>
    /// Sends <paramref name="payload"/> to one session of this server, if it is here: raw with <c>SendAsync</c>, or as a
    /// WebSocket text or binary message on a WebSocket session. Never relayed.
    /// </summary>
    /// <param name="id">The session's id.</param>
    /// <param name="kind">How to send the payload.</param>
    /// <param name="payload">The bytes.</param>
    /// <returns>False if no session here has that id, or it did not take the data.</returns>
    public abstract bool SendLocal(Guid id, MulticastKind kind, ReadOnlySpan<byte> payload);

    /// <summary>
    /// Delivers bytes a relay brought from outside this process (another node's multicast through a shared Redis) to
    /// this server's sessions, under this server type's rule (<see cref="RelayedVerdict"/>): on TCP, TLS and Unix-socket
    /// servers every kind is sent as <see cref="MulticastLocal"/> sends it; on <see cref="WsServer"/> and
    /// <see cref="WssServer"/> only messages this server frames itself reach a session (raw bytes are decoded as
    /// whole data frames and framed again); an HTTP server refuses everything. Text must be valid UTF-8. Never relayed.
    /// </summary>
    /// <param name="kind">How the sender sent the payload.</param>
    /// <param name="payload">The bytes, not trusted.</param>
    /// <param name="filter">Sessions to reach, as for <see cref="MulticastLocal"/>; null for all.</param>
    /// <returns><see cref="RelayedVerdict.Accepted"/>, or why nothing was sent.</returns>
    public abstract RelayedVerdict MulticastRelayed(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter = null);

    /// <summary>
    /// <see cref="SendLocal"/> for bytes a relay brought from outside this process, under the same rule as
    /// <see cref="MulticastRelayed"/>. The payload is judged whether or not the session is here, so every node refuses
    /// the same frames.
    /// </summary>
    /// <param name="id">The session's id.</param>
    /// <param name="kind">How the sender sent the payload.</param>
    /// <param name="payload">The bytes, not trusted.</param>
    /// <returns><see cref="RelayedVerdict.Accepted"/> (sent if the session is here), or why nothing was sent.</returns>
    public abstract RelayedVerdict SendRelayed(Guid id, MulticastKind kind, ReadOnlySpan<byte> payload);

    /// <summary>
    /// Where this server's instruments come from: a host's <see cref="IMeterFactory"/> (from dependency injection), or
    /// null (the default) for the library's own meter named <see cref="ServerMeter.Name"/>. Read by <c>Start</c>.
    /// </summary>
    public IMeterFactory? OptionMeterFactory { get; set; }

    /// <summary>This server's part of the metrics, made by the first <c>Start</c>; null before.</summary>
    internal ServerMetrics? Metrics { get; private set; }

    /// <summary>Publishes the server's instruments from now on, tagged with its transport, protocol and bound endpoint.</summary>
    private protected void StartMetrics(IServerReadings readings, bool unix, string address, System.Net.EndPoint bound)
    {
        var protocol = this is Protocols.WebSockets.IWsServerHost ? "websocket" : this is HttpServer or HttpsServer ? "http" : null;
        var port = bound is System.Net.IPEndPoint ip ? ip.Port : (int?)null;
        Metrics = ServerMetrics.Start(OptionMeterFactory, readings, unix ? "unix" : "tcp", protocol, address, port);
    }

    // Replaced whole when the clock changes: a session keeps the wheel it started with (its EngineOptions hold it).
    private TimerWheel _timers = new();

    /// <summary>The one timer wheel of this server's connections (idle, keep-alive, header and close timeouts).</summary>
    internal TimerWheel Timers => Volatile.Read(ref _timers);

    /// <summary>
    /// The clock of every timeout of this server's sessions: idle, HTTP header, body rate, keep-alive and response,
    /// WebSocket keep-alive, close and message, TLS handshake, disconnect. Default <see cref="TimeProvider.System"/>.
    /// A test sets a fake one (FakeTimeProvider) and advances it instead of waiting; each server has its own, so tests
    /// in parallel do not share a clock. Set it before <c>Start</c>: a session keeps the clock it started with.
    /// </summary>
    /// <exception cref="ArgumentNullException">The value is null.</exception>
    public TimeProvider OptionTimeProvider
    {
        get => Timers.Time;
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            if (value != Timers.Time)
                Volatile.Write(ref _timers, new TimerWheel(default, value));
        }
    }

    TimerWheel IEngineOwner.Timers => Timers;

    ServerMetrics? IMetricsOwner.Metrics => Metrics;

    private protected void ResetCounters()
    {
        Interlocked.Exchange(ref _bytesSent, 0);
        Interlocked.Exchange(ref _bytesReceived, 0);
    }

    /// <summary>A session's bytes, added to the server-wide counters. No user code.</summary>
    internal void Count(long received, long sent)
    {
        if (received != 0)
            Interlocked.Add(ref _bytesReceived, received);
        if (sent != 0)
            Interlocked.Add(ref _bytesSent, sent);
    }

    /// <summary>The TCP options the transport factory sets on an accepted socket (Unix sockets ignore them).</summary>
    internal Transports.TcpOptions AcceptedTcpOptions => new(OptionKeepAlive, OptionTcpKeepAliveTime, OptionTcpKeepAliveInterval, OptionTcpKeepAliveRetryCount, OptionNoDelay);

    // The server's hooks for one session, after the session's own; the generic server casts to its session type.
    internal abstract void RaiseConnecting(StreamSession session);

    internal abstract void RaiseConnected(StreamSession session);

    internal abstract void RaiseDisconnecting(StreamSession session);

    internal abstract void RaiseDisconnected(StreamSession session);

    /// <summary>The session's engine has finished: it leaves the server's sessions and admission counts. No user code.</summary>
    internal abstract void Unregister(StreamSession session);

    // The options of every stream server; sessions read theirs when created. A Unix-socket server refuses the TCP ones.
    /// <summary>Length of the pending-connections queue passed to listen (default 1024).</summary>
    public int OptionAcceptorBacklog { get; set; } = 1024;

    /// <summary>When listening on an IPv6 address, also accept IPv4 connections (default false).</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionDualMode
    {
        get => _dualMode;
        set => _dualMode = TcpOnly(value);
    }

    private bool _dualMode;

    /// <summary>Enable SO_KEEPALIVE on accepted sockets (default false).</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionKeepAlive
    {
        get => _keepAlive;
        set => _keepAlive = TcpOnly(value);
    }

    private bool _keepAlive;

    /// <summary>Seconds of idleness before the first keep-alive probe; -1 (default) keeps the system value.</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public int OptionTcpKeepAliveTime
    {
        get => _tcpKeepAliveTime;
        set => _tcpKeepAliveTime = TcpOnly(value);
    }

    private int _tcpKeepAliveTime = -1;

    /// <summary>Seconds between keep-alive probes; -1 (default) keeps the system value.</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public int OptionTcpKeepAliveInterval
    {
        get => _tcpKeepAliveInterval;
        set => _tcpKeepAliveInterval = TcpOnly(value);
    }

    private int _tcpKeepAliveInterval = -1;

    /// <summary>Unanswered keep-alive probes before the connection is dropped; -1 (default) keeps the system value.</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public int OptionTcpKeepAliveRetryCount
    {
        get => _tcpKeepAliveRetryCount;
        set => _tcpKeepAliveRetryCount = TcpOnly(value);
    }

    private int _tcpKeepAliveRetryCount = -1;

    /// <summary>Disable Nagle's algorithm on accepted sockets (default false).</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionNoDelay
    {
        get => _noDelay;
        set => _noDelay = TcpOnly(value);
    }

    private bool _noDelay;

    /// <summary>Set SO_REUSEADDR on the listening socket (default false).</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
    public bool OptionReuseAddress
    {
        get => _reuseAddress;
        set => _reuseAddress = TcpOnly(value);
    }

    private bool _reuseAddress;

    /// <summary>Set SO_EXCLUSIVEADDRUSE on the listening socket (Windows only; ignored elsewhere; default false).</summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server (a TCP option).</exception>
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
    /// Idle timeout of new sessions (default <see cref="TimeSpan.Zero"/>: none); a session receiving nothing for this
    /// long is disconnected with <see cref="DisconnectReason.Timeout"/>. See <see cref="StreamConnection.OptionIdleTimeout"/>.
    /// </summary>
    public TimeSpan OptionIdleTimeout { get; set; }

    /// <summary>
    /// Serve new sessions from this many of the library's own epoll event loops (shared by the process, sessions spread
    /// round robin); 0 serves them from the runtime's socket engine and thread pool. Hooks run on the loop's thread; one
    /// that runs past <see cref="EventLoops.HandoffThreshold"/> has its loop handed to another thread, so the loop's
    /// other sessions go on (see docs/design/event-loops.md). Default <see cref="EventLoops.DefaultCount"/>: one loop
    /// per core on Linux, 0 elsewhere.
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

    private int _eventLoops = EventLoops.DefaultCount;

    /// <summary>
    /// True for a <see cref="UdsServer"/>, whose TCP options throw. A TCP-derived server given a socket file (an
    /// <see cref="HttpServer"/>) keeps them, unapplied, so one configuration serves both kinds of endpoint.
    /// </summary>
    private protected virtual bool UnixSocket => false;

    /// <summary>Passes a TCP option's new value through, or refuses it on a Unix-socket server (silently ignoring it would hide a mistake).</summary>
    private protected T TcpOnly<T>(T value, [CallerMemberName] string option = "")
    {
        if (UnixSocket)
            throw new NotSupportedException($"{option} is a TCP option; a Unix domain socket server ({GetType().Name}) has no use for it.");
        return value;
    }

    // The options new sessions share until one of them writes its own (see CopyOnWriteOptions).
    private EngineOptions? _sessionLimits;

    /// <summary>The options a new session starts with: the server's current session options, one instance shared by every session made while they stay the same.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><see cref="OptionIdleTimeout"/> is negative.</exception>
    internal EngineOptions SessionLimits()
    {
        var receive = OptionReceiveBufferSize;
        var send = OptionSendBufferSize;
        var idle = OptionIdleTimeout;
        var timers = Timers;
        var shared = Volatile.Read(ref _sessionLimits);
        if (shared != null && shared.ReceiveBufferSize == receive && shared.SendBufferSize == send && shared.IdleTimeout == idle && shared.Timers == timers)
            return shared;
        // The session's own OptionIdleTimeout refuses a negative value; so does the server's default for it.
        ArgumentOutOfRangeException.ThrowIfLessThan(idle, TimeSpan.Zero, nameof(OptionIdleTimeout));
        shared = new EngineOptions { Owner = this, Timers = timers, ReceiveBufferSize = receive, SendBufferSize = send, IdleTimeout = idle }.Share();
        Volatile.Write(ref _sessionLimits, shared);
        return shared;
    }
}
