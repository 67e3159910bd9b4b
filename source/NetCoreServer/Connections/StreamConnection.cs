using System;
using System.Net.Sockets;
using System.Threading;
using NetCoreServer.Connections;
using NetCoreServer.Engine;
using NetCoreServer.Protocols;
using NetCoreServer.Protocols.Framing;
using NetCoreServer.Protocols.Http;
using NetCoreServer.Protocols.WebSockets;
using NetCoreServer.Transports;

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
/// <see cref="OnDisconnected"/> follows all of them; each runs exactly once per connection. A disconnect requested
/// while a connect hook runs (from any thread) takes effect when that hook returns.
/// Exceptions: a hook raised by the library's loops that throws goes to <see cref="OnHandlerException"/> and the
/// connection closes with <see cref="NetCoreServer.DisconnectReason.HandlerException"/>; a hook raised inline by your
/// own call (a blocking <c>Receive</c>, a refused <c>SendAsync</c>) lets the exception reach that call.
/// </remarks>
public abstract partial class StreamConnection : IDisposable, IStreamSessionHost, IProtocolConnection
{
    // The state of a connection: everything else (StreamConnection.*.cs) reaches it through the members of this file.
    // Allocated per connection, so nothing is added here on the idle path (docs/design/server.md).
    private StreamSessionEngine? _engine;
    private IStreamProtocol? _protocol;
    // Not readonly: a mutable struct, copied on the first write (CopyOnWriteOptions).
    private CopyOnWriteOptions _options;
    // A user's class overrides OnReceived: received bytes go through it, and its base.OnReceived feeds the protocol.
    private readonly bool _receivedOverridden;
    // Made on first need (the override path only).
    private ProtocolFeed? _feed;

    /// <param name="shared">
    /// Options shared with other connections (a server's session defaults), or null for options of its own (a client).
    /// </param>
    private protected StreamConnection(EngineOptions? shared)
    {
        _options = new CopyOnWriteOptions(shared);
        Id = Guid.NewGuid();
        _receivedOverridden = ReceivedOverride.In(GetType());
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

    /// <summary>Options and limits, read by the engine; possibly shared with other sessions, so only read through this.</summary>
    private protected EngineOptions Limits => _options.Read;

    /// <summary>Options and limits to write: the connection's own copy (made on the first write), which the engine then reads.</summary>
    private protected EngineOptions WritableLimits => _options.Writable();

    /// <summary>The engine of the current (or last) connection.</summary>
    private protected StreamSessionEngine? Engine => _engine;

    /// <summary>True when the calling thread is inside one of this connection's hooks (waiting there on the connection itself would deadlock).</summary>
    private protected bool IsInsideOwnHook => _engine != null && Hooks.Inside(_engine);

    /// <summary>
    /// The protocol spoken on this connection (HTTP, WebSocket), or null for raw bytes through <see cref="OnReceived"/>.
    /// Replacing it (an upgrade) takes effect with the next bytes the engine hands over, on the same connection.
    /// </summary>
    internal IStreamProtocol? Protocol
    {
        get => Volatile.Read(ref _protocol);
        set => Volatile.Write(ref _protocol, value);
    }

    /// <summary>
    /// How whole messages are cut out of the byte stream (<see cref="MessageFraming.Lines"/>, a length prefix, a
    /// delimiter), or null (the default) for raw bytes. Set it before the connection starts receiving.
    /// </summary>
    /// <remarks>
    /// When set, received bytes go to <see cref="OnReceivedMessage"/> one message at a time instead of
    /// <see cref="OnReceived"/>, and <see cref="SendMessage(ReadOnlySpan{byte})"/> frames what it sends. A session takes its
    /// server's <c>Framing</c> unless it set its own. An <see cref="OnReceived"/> override sees the raw bytes first;
    /// messages are cut only from what it passes to <c>base.OnReceived</c>.
    /// </remarks>
    /// <exception cref="InvalidOperationException">The connection already speaks another protocol (HTTP, WebSocket).</exception>
    public MessageFraming? Framing
    {
        get => (Protocol as FramedProtocol)?.Framing;
        set
        {
            var protocol = Protocol;
            if (protocol != null && protocol is not FramedProtocol)
                throw new InvalidOperationException("this connection speaks another protocol (HTTP or WebSocket); framing replaces raw bytes only");
            Protocol = value == null ? null : new FramedProtocol(this, value);
        }
    }

    /// <summary>Makes a new engine over a connected transport the current one; its hooks begin when it is started.</summary>
    /// <param name="transport">The connected transport.</param>
    /// <returns>The new engine.</returns>
    private protected StreamSessionEngine CreateEngine(IStreamTransport transport)
    {
        var engine = new StreamSessionEngine(transport, this);
        _feed?.Clear();
        (Protocol as FramedProtocol)?.Restart();
        Interlocked.Exchange(ref _engine, engine);
        return engine;
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

    /// <summary>Raises OnDisconnected (and the server's hook for sessions).</summary>
    private protected virtual void NotifyDisconnected() => OnDisconnected();

    /// <summary>The connection is finished and no hook of it will run again (sessions leave their server here).</summary>
    private protected virtual void NotifyReleased()
    {
    }

    /// <summary>Adds traffic to server-wide counters.</summary>
    private protected virtual void NotifyCounted(long received, long sent)
    {
    }

    /// <summary>The default <see cref="OnReceived"/>: hands the bytes to the protocol, if any.</summary>
    private void FeedProtocol(byte[] buffer, long offset, long size)
    {
        if (size > 0)
            FeedProtocol(buffer.AsSpan(checked((int)offset), checked((int)size)));
    }

    /// <summary>
    /// What <see cref="OnReceived"/> does for a connection with a protocol (HTTP, WebSocket): feeds it through the
    /// <see cref="ProtocolFeed"/>; a message left unfinished past the receive limit closes the connection with
    /// <see cref="DisconnectReason.ProtocolError"/>.
    /// </summary>
    private void FeedProtocol(ReadOnlySpan<byte> chunk)
    {
        if (Volatile.Read(ref _protocol) == null)
            return;
        var feed = _feed ??= new ProtocolFeed();
        if (!feed.Feed(this, chunk, Limits.EffectiveReceiveBufferLimit))
            DisconnectEngine(NetCoreServer.DisconnectReason.ProtocolError);
    }

    // What the protocols see of this connection (IProtocolConnection): they name no connection class.
    IStreamProtocol? IProtocolConnection.Protocol => Protocol;

    void IProtocolConnection.HoldForInbox() => HoldForInbox();

    void IProtocolConnection.ReleaseForInbox() => ReleaseForInbox();

    /// <summary>A full <see cref="MessageInbox"/> holds the receive loop (inside the protocol's receive call).</summary>
    internal virtual void HoldForInbox() => HoldReceiving();

    /// <summary>Ends <see cref="HoldForInbox"/> (any thread). Both virtual so a test can delay one (WsReceiveMessagesTests).</summary>
    internal virtual void ReleaseForInbox() => ReleaseReceiving();

    /// <summary>A whole framed message arrived (on the receive loop).</summary>
    void IProtocolConnection.RaiseMessage(ReadOnlySpan<byte> message) => OnReceivedMessage(message);

    /// <summary>The peer broke the framing (a message over the limit, or a length shorter than its field): OnError(MessageSize), then the connection closes as a protocol error.</summary>
    void IProtocolConnection.RefuseMessage()
    {
        OnError(SocketError.MessageSize);
        DisconnectEngine(NetCoreServer.DisconnectReason.ProtocolError);
    }

    /// <summary>Starts a graceful disconnect of the current connection.</summary>
    private protected bool DisconnectEngine(DisconnectReason reason) => _engine?.Disconnect(reason) ?? false;

    // The hook dispatcher: the engine's calls in, the notifications and user hooks out. It is this object's own
    // interface implementation, not a component object, so that it costs no allocation per connection.
    EngineOptions IStreamSessionHost.EngineOptions => _options.Read;

    void IStreamSessionHost.EngineConnecting() => NotifyConnecting();

    void IStreamSessionHost.EngineConnected() => NotifyConnected();

    void IStreamSessionHost.EngineHandshaking() => NotifyHandshaking();

    void IStreamSessionHost.EngineHandshaked() => NotifyHandshaked();

    int IStreamSessionHost.EngineReceived(byte[] buffer, int offset, int size)
    {
        var protocol = Volatile.Read(ref _protocol);
        if (protocol != null && !_receivedOverridden)
            return protocol.Received(buffer.AsSpan(offset, size));
        // Raw bytes, or a user's override that sees each chunk once: what its base.OnReceived leaves is kept by the feed.
        OnReceived(buffer, offset, size);
        return size;
    }

    void IStreamSessionHost.EngineResumed()
    {
        // Only the override path keeps bytes here; without it the engine kept them and hands them over itself.
        if (_feed is { Length: > 0 })
            FeedProtocol(ReadOnlySpan<byte>.Empty);
    }

    void IStreamSessionHost.EngineSent(long sent, long pending)
    {
        Volatile.Read(ref _protocol)?.Sent();
        OnSent(sent, pending);
    }

    void IStreamSessionHost.EngineEmpty()
    {
        Volatile.Read(ref _protocol)?.Sent();
        OnEmpty();
    }

    void IStreamSessionHost.EngineWritabilityChanged(bool writable) => OnWritabilityChanged(writable);

    void IStreamSessionHost.EngineError(SocketError error) => OnError(error);

    void IStreamSessionHost.EngineHandlerException(Exception exception) => OnHandlerException(exception);

    void IStreamSessionHost.EngineDisconnecting() => NotifyDisconnecting();

    void IStreamSessionHost.EngineDisconnected()
    {
        (Protocol as IMessageSource)?.Ended();
        NotifyDisconnected();
    }

    void IStreamSessionHost.EngineReleased()
    {
        _feed?.Clear();
        NotifyReleased();
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
