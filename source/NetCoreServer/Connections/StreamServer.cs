using System;
using System.Buffers;
using System.Collections.Concurrent;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Connections;
using NetCoreServer.Engine;
using NetCoreServer.Protocols;
using NetCoreServer.Transports;
using NetCoreServer.Transports.Tls;

namespace NetCoreServer;

/// <summary>
/// A server of stream connections (TCP, TLS, Unix sockets): listens, accepts, and gives each connection a session made
/// by <see cref="CreateSession"/>. Hook order per connection (NetCoreServer's): session.OnConnecting, server.OnConnecting,
/// session.OnConnected, server.OnConnected, session.OnEmpty, data hooks, session.OnDisconnecting,
/// server.OnDisconnecting, session.OnDisconnected, server.OnDisconnected.
/// </summary>
/// <typeparam name="TSession">The session type of this server.</typeparam>
/// <remarks>
/// Design notes: docs/design/server.md.
/// </remarks>
public abstract partial class StreamServer<TSession> : StreamServer, IDisposable, IAcceptor
    where TSession : StreamSession
{
    /// <summary>Default of <see cref="OptionDescriptorReserve"/>.</summary>
    public const int DefaultDescriptorReserve = 256;

    private readonly AcceptLoop _accept;
    private readonly AdmissionControl _admission = new();
    private readonly SessionRegistry<TSession> _registry = new();
    private readonly MulticastFanout<TSession> _multicast;
    // ReceivesMulticast bound once, so a multicast makes no delegate.
    private readonly Func<StreamSession, bool> _receivesMulticast;
    private int _maxSessionsPerAddress;
    // The socket file of a server given a UnixDomainSocketEndPoint (whatever its class); null for an IP endpoint.
    private readonly SocketFileOwner? _socketFile;

    /// <summary>Connected sessions by id.</summary>
    protected readonly ConcurrentDictionary<Guid, TSession> Sessions;

    /// <summary>Creates a server for any endpoint.</summary>
    /// <param name="target">The endpoint, and the address and port as given by the user.</param>
    private protected StreamServer(EndpointSpec target)
    {
        Id = Guid.NewGuid();
        (Endpoint, Address, Port) = target;
        if (target.Endpoint is UnixDomainSocketEndPoint unix)
            _socketFile = new SocketFileOwner(unix);
        _accept = new AcceptLoop(this);
        _multicast = new MulticastFanout<TSession>(_registry);
        _receivesMulticast = ReceivesMulticast;
        Sessions = _registry.Sessions;
    }

    /// <summary>Unique identifier of this server.</summary>
    public Guid Id { get; }

    /// <summary>The address as given to the constructor; for a Unix-socket server, the path of its socket file.</summary>
    public string Address { get; }

    /// <summary>The port as given to the constructor; 0 for a Unix-socket server.</summary>
    public int Port { get; }

    /// <summary>The endpoint; after <see cref="Start"/> it is the bound endpoint, so a server started on port 0 reports its real port.</summary>
    public EndPoint Endpoint { get; private set; }

    /// <summary>True between a successful <see cref="Start"/> and <see cref="Stop"/>.</summary>
    public bool IsStarted { get; private set; }

    /// <summary>True while new connections are being accepted.</summary>
    public bool IsAccepting => _accept.IsAccepting;

    /// <summary>True after <see cref="Dispose()"/>.</summary>
    public bool IsDisposed { get; private set; }

    /// <summary>True when the listening socket is closed.</summary>
    public bool IsSocketDisposed => _accept.IsClosed;

    /// <summary>Bytes queued and not yet sent, summed over all sessions (computed on read).</summary>
    public long BytesPending => Sessions.Values.Sum(s => s.BytesPending + s.BytesSending);

    /// <summary>Number of sessions currently registered (connected or finishing a disconnect); each gets every multicast made from then on.</summary>
    public long ConnectedSessions => _registry.Count;

    /// <summary>
    /// Multicast messages not queued on a session because its send limit was reached (a slow consumer), since the server
    /// started: one per session and message, whatever <see cref="OptionSlowConsumerPolicy"/>.
    /// </summary>
    public long SkippedMulticasts => _multicast.Skipped;

    /// <summary>
    /// Slow-consumer episodes since the server started: each time a session began skipping multicasts (reported once
    /// through <see cref="StreamSession.OnSlowConsumer"/>), or was disconnected for it under <see cref="SlowConsumerPolicy.Disconnect"/>.
    /// </summary>
    public long SlowConsumerEpisodes => _multicast.SlowConsumerEpisodes;

    /// <summary>
    /// Most sessions at once; a connection beyond it is closed at once and reported to <see cref="OnRefused"/> with
    /// <see cref="RefusalReason.ServerFull"/>. 0 (the default) sets no count (<see cref="OptionDescriptorReserve"/> still applies).
    /// </summary>
    public int OptionMaxSessions { get; set; }

    /// <summary>
    /// Most sessions from one remote IP address (IPv4-mapped IPv6 counts as IPv4); beyond it a connection is refused with
    /// <see cref="RefusalReason.AddressFull"/>. 0 (the default) sets no cap: NAT, proxies and benchmarks share addresses.
    /// </summary>
    /// <exception cref="NotSupportedException">Set on a Unix-socket server: its peers have no address.</exception>
    public int OptionMaxSessionsPerAddress
    {
        get => _maxSessionsPerAddress;
        set => _maxSessionsPerAddress = TcpOnly(value);
    }

    /// <summary>
    /// Descriptors kept free for the rest of the process: a connection accepted with fewer than this many left under
    /// RLIMIT_NOFILE is refused with <see cref="RefusalReason.DescriptorReserve"/>. Default <see cref="DefaultDescriptorReserve"/>;
    /// 0 turns the check off. Linux only.
    /// </summary>
    public int OptionDescriptorReserve { get; set; } = DefaultDescriptorReserve;

    /// <summary>
    /// What <see cref="Multicast(ReadOnlySpan{byte})"/> does with a session whose send limit the message would pass:
    /// <see cref="SlowConsumerPolicy.Skip"/> (the default, as in NetCoreServer: it misses the message, reported through
    /// <see cref="StreamSession.OnSlowConsumer"/>) or <see cref="SlowConsumerPolicy.Disconnect"/> (closed with
    /// <see cref="DisconnectReason.SlowConsumer"/>: no gaps). Either way counted in <see cref="SkippedMulticasts"/>.
    /// </summary>
    public SlowConsumerPolicy OptionSlowConsumerPolicy { get; set; }

    /// <summary>The registered sessions as an array that is replaced, never changed, when one comes or goes: for loops over every session (multicast) that must not allocate.</summary>
    private protected TSession[] SessionSnapshot => _registry.Snapshot;

    /// <summary>The handshakes under way and their cap (TLS servers); null for transports without a handshake.</summary>
    private protected virtual HandshakeGate? Handshakes => null;

    /// <summary>Creates the listening socket; override to customise it.</summary>
    /// <returns>A new, unbound socket for <see cref="Endpoint"/>.</returns>
    protected virtual Socket CreateSocket()
        => new(Endpoint.AddressFamily, SocketType.Stream, Endpoint is UnixDomainSocketEndPoint ? ProtocolType.Unspecified : ProtocolType.Tcp);

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new session.</returns>
    protected abstract TSession CreateSession();

    /// <summary>Binds, listens and starts accepting. Hooks: OnStarting (after bind), OnStarted.</summary>
    /// <returns>False if already started.</returns>
    /// <exception cref="SocketException">The endpoint cannot be bound (for example, the port is in use).</exception>
    public virtual bool Start()
    {
        if (IsStarted)
            return false;
        if (Endpoint is DnsEndPoint dns)
            Endpoint = new IPEndPoint(Dns.GetHostAddresses(dns.Host).First(), dns.Port);

        var listener = CreateSocket();
        try
        {
            ConfigureListener(listener);
            BindListener(listener);
            Endpoint = listener.LocalEndPoint ?? Endpoint;
            OnStarting();
            listener.Listen(OptionAcceptorBacklog);
        }
        catch
        {
            listener.Dispose();
            ListenerClosed();
            throw;
        }

        _accept.Attach(listener);
        ResetCounters();
        _multicast.ResetCounters();
        IsStarted = true;
        StartMetrics(new StreamReadings<TSession>(this), _socketFile != null, Address, Endpoint);
        OnStarted();
        _accept.Run();
        return true;
    }

    /// <summary>Finds a connected session by id.</summary>
    /// <param name="id">Session id.</param>
    /// <returns>The session, or null.</returns>
    public TSession? FindSession(Guid id) => Sessions.TryGetValue(id, out var session) ? session : null;

    /// <summary>Queues the same data on every connected session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Data to send.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(byte[] buffer) => Multicast(buffer.AsSpan());

    /// <summary>Queues part of a buffer on every connected session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the data.</param>
    /// <param name="offset">Offset of the data.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(byte[] buffer, long offset, long size) => Multicast(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Queues the same bytes on every registered session, copied once whatever the number of sessions. A session whose
    /// send limit the message would pass is handled by <see cref="OptionSlowConsumerPolicy"/> (by default it skips the
    /// message and gets <see cref="StreamSession.OnSlowConsumer"/> once per episode; <c>OnError(NoBufferSpaceAvailable)</c>
    /// too if its <c>OptionSendBufferLimit</c> was set). Sessions' <c>SendAsync</c> overrides are not called.
    /// With a <see cref="StreamServer.MulticastRelay"/> (a backplane), the bytes then go to it as <see cref="MulticastKind.Raw"/>.
    /// </summary>
    /// <param name="buffer">Data to send (copied once before the call returns).</param>
    /// <returns>False if the server is not started; true otherwise (also for empty data).</returns>
    public virtual bool Multicast(ReadOnlySpan<byte> buffer)
    {
        if (!IsStarted)
            return false;
        if (!buffer.IsEmpty)
        {
            _multicast.Publish(buffer, _receivesMulticast, OptionSlowConsumerPolicy);
            MulticastRelay?.OnMulticast(MulticastKind.Raw, buffer);
        }
        return true;
    }

    /// <inheritdoc/>
    public override bool MulticastLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter = null)
        => kind == MulticastKind.Raw ? PublishLocal(payload, filter) : MulticastMessageLocal(kind, payload, filter);

    /// <inheritdoc/>
    public override bool SendLocal(Guid id, MulticastKind kind, ReadOnlySpan<byte> payload)
        => Sessions.TryGetValue(id, out var session) && SendKind(session, kind, payload);

    /// <inheritdoc/>
    public override RelayedVerdict MulticastRelayed(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter = null)
        => MulticastRelayedLocal(kind, payload, filter);

    /// <inheritdoc/>
    public override RelayedVerdict SendRelayed(Guid id, MulticastKind kind, ReadOnlySpan<byte> payload)
        => SendRelayedLocal(Sessions.TryGetValue(id, out var session) ? session : null, kind, payload);

    /// <summary>The raw-bytes rule of TCP, TLS and Unix-socket servers; HTTP and WebSocket servers have their own.</summary>
    private protected virtual RelayedVerdict MulticastRelayedLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
    {
        var verdict = RelayedPayload.Check(kind, payload);
        if (verdict == RelayedVerdict.Accepted)
            MulticastLocal(kind, payload, filter);
        return verdict;
    }

    /// <summary>One session's part of <see cref="SendRelayed"/> (<paramref name="session"/> null when it is not here).</summary>
    private protected virtual RelayedVerdict SendRelayedLocal(TSession? session, MulticastKind kind, ReadOnlySpan<byte> payload)
    {
        var verdict = RelayedPayload.Check(kind, payload);
        if (verdict == RelayedVerdict.Accepted && session != null)
            SendKind(session, kind, payload);
        return verdict;
    }

    /// <summary>Queues bytes on this server's sessions (those <paramref name="filter"/> admits); never relayed.</summary>
    private protected bool PublishLocal(ReadOnlySpan<byte> buffer, Func<StreamSession, bool>? filter)
    {
        if (!IsStarted)
            return false;
        if (!buffer.IsEmpty)
            _multicast.Publish(buffer, filter == null ? _receivesMulticast : Filtered(_receivesMulticast, filter), OptionSlowConsumerPolicy);
        return true;
    }

    // A method of its own: a lambda in PublishLocal made its closure on every call, filtered or not.
    private static Func<StreamSession, bool> Filtered(Func<StreamSession, bool> receives, Func<StreamSession, bool> filter)
        => s => receives(s) && filter(s);

    /// <summary>A text or binary payload for <see cref="MulticastLocal"/>: raw here, a WebSocket message on a WebSocket server.</summary>
    private protected virtual bool MulticastMessageLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
        => PublishLocal(payload, filter);

    /// <summary>One session's part of <see cref="SendLocal"/>: raw here, a WebSocket message on a WebSocket session.</summary>
    private protected virtual bool SendKind(TSession session, MulticastKind kind, ReadOnlySpan<byte> payload) => session.SendAsync(payload);

    /// <summary>
    /// The framing its sessions speak (<see cref="MessageFraming.Lines"/>, a length prefix, a delimiter), or null (the
    /// default) for raw bytes: a session made after it is set takes it unless it set its own <c>Framing</c>, and
    /// <see cref="MulticastMessage(ReadOnlySpan{byte})"/> frames with it. Set it before <c>Start</c>.
    /// </summary>
    public MessageFraming? Framing { get; set; }

    /// <summary>
    /// Queues one message framed by <see cref="Framing"/> on every connected session, framed and copied once whatever
    /// the number of sessions; otherwise as <see cref="Multicast(ReadOnlySpan{byte})"/>.
    /// </summary>
    /// <param name="message">The message.</param>
    /// <returns>False if the server is not started.</returns>
    /// <exception cref="InvalidOperationException"><see cref="Framing"/> is not set.</exception>
    /// <exception cref="ArgumentException">The message is over the framing's maximum, or contains its delimiter.</exception>
    public virtual bool MulticastMessage(ReadOnlySpan<byte> message)
    {
        var framing = Framing ?? throw new InvalidOperationException("set Framing before multicasting messages");
        Span<byte> prefix = stackalloc byte[MessageFraming.MaxPrefix];
        var length = framing.WritePrefix(message, prefix);
        var suffix = framing.Suffix;
        var total = length + message.Length + suffix.Length;
        byte[]? rented = null;
        var framed = total <= 512 ? stackalloc byte[512] : (rented = ArrayPool<byte>.Shared.Rent(total));
        try
        {
            prefix[..length].CopyTo(framed);
            message.CopyTo(framed[length..]);
            suffix.CopyTo(framed[(length + message.Length)..]);
            return Multicast(framed[..total]);
        }
        finally
        {
            if (rented != null)
                ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>Queues text as one UTF-8 message on every session; see <see cref="MulticastMessage(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">The message.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastMessage(string text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return MulticastMessage(bytes.Span);
    }

    /// <summary>Queues text as UTF-8 on every session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(string text) => Multicast(text.AsSpan());

    /// <summary>Queues text as UTF-8 on every session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Multicast(bytes.Span);
    }

    /// <summary>Whether <see cref="Multicast(ReadOnlySpan{byte})"/> reaches <paramref name="session"/> (a WebSocket server: only upgraded sessions).</summary>
    private protected virtual bool ReceivesMulticast(StreamSession session) => true;

    /// <summary>Binds the listening socket to <see cref="Endpoint"/>; on a socket file, also notes which file it created.</summary>
    /// <param name="listener">The configured listening socket.</param>
    private void BindListener(Socket listener)
    {
        if (_socketFile != null)
            _socketFile.Bind(listener);
        else
            listener.Bind(Endpoint);
    }

    /// <summary>Cleanup after the listening socket closed (also after a failed Start): a socket file's server removes its file.</summary>
    private void ListenerClosed() => _socketFile?.Release();

    // The TCP-only options do not apply to a socket file (set on an HttpServer given one, they are skipped).
    private void ConfigureListener(Socket listener)
    {
        if (_socketFile != null)
        {
            _socketFile.ClearStale();
            return;
        }
        if (OptionReuseAddress)
            listener.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        if (OptionExclusiveAddressUse && OperatingSystem.IsWindows())
            listener.ExclusiveAddressUse = true;
        if (listener.AddressFamily == AddressFamily.InterNetworkV6)
            listener.DualMode = OptionDualMode;
    }

    HandshakeGate? IAcceptor.Handshakes => Handshakes;

    bool IAcceptor.TryAdmit(Socket socket, out StreamSession? session, out EndPoint? admitted)
    {
        session = null;
        if (!Admit(socket, out admitted))
            return false;
        try
        {
            session = CreateSession();
            if (Framing is { } framing && session.Protocol == null)
                session.Framing = framing;
            return true;
        }
        catch (Exception exception)
        {
            socket.Dispose();
            _admission.Release(admitted);
            admitted = null;
            ReportHandlerException(exception);
            return false;
        }
    }

    StreamSessionEngine IAcceptor.RegisterLocked(StreamSession session, Socket socket, EndPoint? admitted)
    {
        var engine = session.Accept(socket, admitted);
        // Joined before it is counted, in one step under the log's lock: a multicast that can find the session in
        // the registry (ConnectedSessions, FindSession) is one it sends, and none reaches it unfiltered (issue 35).
        var log = _multicast.Log;
        lock (log.Lock)
        {
            engine.JoinLogLocked(log);
            _registry.Add((TSession)session);
        }
        return engine;
    }

    void IAcceptor.Abandon(EndPoint? admitted) => _admission.Release(admitted);

    void IAcceptor.Start(StreamSessionEngine engine)
    {
        Metrics?.ConnectionAccepted();
        engine.StartAccepted();
    }

    void IAcceptor.ReportError(SocketError error)
        => Hooks.Run(this, HookKind.Other, error, static (server, error) => server.OnError(error), static (server, exception) => server.ReportHandlerException(exception));

    /// <summary>
    /// Counts an accepted socket against the caps and asks <see cref="OnAccepting"/>; false when refused (the socket is
    /// then closed and reported). <paramref name="admitted"/>: the endpoint counted under an address, else null.
    /// </summary>
    private bool Admit(Socket socket, out EndPoint? admitted)
    {
        EndPoint? remote;
        try
        {
            remote = socket.RemoteEndPoint;
        }
        catch (SocketException)
        {
            remote = null;
        }
        var address = AdmissionControl.AddressOf(remote);
        admitted = address == null ? null : remote;

        var refusal = _admission.TryCount(socket, address, OptionMaxSessions, OptionMaxSessionsPerAddress, OptionDescriptorReserve);
        if (refusal == null)
        {
            var accepted = false;
            Hooks.Run(this, HookKind.Other, remote, (server, endpoint) => accepted = server.OnAccepting(endpoint), static (server, exception) => server.ReportHandlerException(exception));
            if (accepted)
                return true;
            _admission.Release(admitted);
            refusal = RefusalReason.Refused;
        }
        AdmissionControl.Refuse(socket);
        Metrics?.ConnectionRefused(refusal.Value);
        Hooks.Run(this, HookKind.Other, (remote, refusal.Value), static (server, a) => server.OnRefused(a.remote, a.Value), static (server, exception) => server.ReportHandlerException(exception));
        admitted = null;
        return false;
    }

    private void ReportHandlerException(Exception exception)
    {
        try
        {
            OnHandlerException(exception);
        }
        catch (Exception)
        {
            // Nothing more to report to; the accept loop must survive it.
        }
    }

    internal override void RaiseConnecting(StreamSession session) => OnConnecting((TSession)session);

    internal override void RaiseConnected(StreamSession session) => OnConnected((TSession)session);

    internal override void RaiseDisconnecting(StreamSession session) => OnDisconnecting((TSession)session);

    internal override void RaiseDisconnected(StreamSession session) => OnDisconnected((TSession)session);

    internal override void Unregister(StreamSession session)
    {
        _registry.Remove(session.Id);
        _admission.Release(session.AdmittedEndPoint);
        MulticastRelay?.OnSessionClosed(session);
    }

    /// <summary>Stops the server (when <paramref name="disposingManagedResources"/> is true) and marks it disposed.</summary>
    /// <param name="disposingManagedResources">True when called from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposingManagedResources)
    {
        if (IsDisposed)
            return;
        if (disposingManagedResources)
            Stop();
        IsDisposed = true;
    }

    /// <summary>Stops the server and releases it.</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }
}
