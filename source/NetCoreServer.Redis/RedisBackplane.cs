using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using StackExchange.Redis;

namespace NetCoreServer.Redis;

/// <summary>
/// Carries a server's multicasts to every other node of a cluster through one Redis pub/sub channel, and delivers
/// theirs to its own sessions, so a multicast reaches the sessions of every node once. Attach one per server with
/// <see cref="Attach(StreamServer, string, RedisBackplaneOptions?)"/>; after that, the server's <c>Multicast</c>,
/// <c>MulticastText</c> and <c>MulticastBinary</c> (WebSocket) go to every node, and
/// <see cref="MulticastToGroup(string, ReadOnlySpan{byte}, MulticastKind)"/> and
/// <see cref="SendToSession(Guid, ReadOnlySpan{byte}, MulticastKind)"/> reach groups and sessions on any node.
/// </summary>
/// <remarks>
/// Local delivery happens at once and never waits for Redis. What goes to Redis is queued (bounded by
/// <see cref="RedisBackplaneOptions.MaxQueuedMessages"/> and <see cref="RedisBackplaneOptions.MaxQueuedBytes"/>) and
/// published in order by one loop; what cannot be published (queue full, Redis down, too large) is counted in
/// <see cref="Dropped"/>, and the other nodes count the gap in their <see cref="Lost"/>. Redis pub/sub keeps nothing
/// for a node that is not listening: messages published while a node is cut off are lost to it, not replayed.
/// Each message carries the publishing node's id; a node ignores its own. Thread safety: every member is safe from any
/// thread; received messages are delivered on the Redis client's thread, one at a time.
/// </remarks>
public sealed class RedisBackplane : IMulticastRelay, IDisposable, IAsyncDisposable
{
    // Orders attaching and detaching, so two backplanes never both take one server.
    private static readonly object s_attach = new();

    private readonly IConnectionMultiplexer _redis;
    private readonly bool _ownsRedis;
    private readonly RedisChannel _channel;
    private readonly RedisBackplaneOptions _options;
    private readonly FrameSigner? _signer;
    private readonly Publisher _publisher;
    private readonly GroupMembership _groups = new();
    private readonly Listener _listener;
    private readonly BackplaneMeter _meter;
    private int _disposed;

    private RedisBackplane(StreamServer server, IConnectionMultiplexer redis, bool ownsRedis, RedisBackplaneOptions options)
    {
        Server = server;
        _redis = redis;
        _ownsRedis = ownsRedis;
        _options = options;
        _channel = RedisChannel.Literal(options.Channel);
        // One signer per loop: each reuses its HMAC states without a lock.
        _signer = FrameSigner.Create(options);
        _publisher = new Publisher(redis, _channel, options.MaxQueuedMessages, options.MaxQueuedBytes, _signer, options.TimeProvider);
        _listener = new Listener(redis, _channel, NodeId, server, _groups, FrameSigner.Create(options), options);
        _meter = BackplaneMeter.For(server.OptionMeterFactory);
        _meter.Register(this, options.Channel);
    }

    /// <summary>"NetCoreServer.Redis": the meter of every backplane's counters (<c>netcoreserver.backplane.*</c>, tagged with the channel).</summary>
    public const string MeterName = "NetCoreServer.Redis";

    /// <summary>The server this backplane is attached to.</summary>
    public StreamServer Server { get; }

    /// <summary>This node's id, new for every backplane: carried by each message it publishes so it ignores its own.</summary>
    public Guid NodeId { get; } = Guid.NewGuid();

    /// <summary>True while the node is connected to Redis and listening on the channel.</summary>
    public bool IsConnected => _redis.IsConnected && _listener.IsSubscribed;

    /// <summary>Messages of this node published to Redis.</summary>
    public long Published => _publisher.Published;

    /// <summary>Messages of other nodes received from Redis and delivered here (to whichever sessions they were for); refused frames are in <see cref="Refused"/>.</summary>
    public long Received => _listener.Received;

    /// <summary>
    /// Messages of this node that were delivered locally but not published: the queue was full, Redis was unreachable
    /// or failed the publish, the payload was over <see cref="RedisBackplaneOptions.MaxMessageSize"/>, or the backplane
    /// was disposed before they left.
    /// </summary>
    public long Dropped => _publisher.Dropped;

    /// <summary>
    /// Messages of other nodes that never arrived here, seen as gaps in each node's sequence numbers: what they dropped,
    /// and what Redis published while this node was cut off. Messages lost at the very end of a node's life are not seen.
    /// </summary>
    public long Lost => _listener.Lost;

    /// <summary>
    /// Frames from the channel this node refused and delivered to no session, whatever the reason (the sum of
    /// <see cref="RefusedFor"/>): bytes that are not a frame, a kind or content this server type does not take, and,
    /// with a <see cref="RedisBackplaneOptions.Secret"/>, unsigned, badly signed and replayed frames. Another client of
    /// a shared Redis publishing on the channel shows here.
    /// </summary>
    public long Refused => _listener.Refused;

    /// <summary>Frames from the channel refused for one reason.</summary>
    /// <param name="reason">The reason.</param>
    /// <returns>How many since the backplane attached.</returns>
    public long RefusedFor(BackplaneRefusal reason) => _listener.RefusedFor(reason);

    /// <summary>Times the connection to Redis was restored after a failure.</summary>
    public long Reconnects => _listener.Reconnects;

    /// <summary>Messages waiting to be published now.</summary>
    public int QueuedMessages => _publisher.QueuedMessages;

    /// <summary>
    /// Connects to Redis and attaches a backplane to <paramref name="server"/> (started or not); blocks until connected.
    /// </summary>
    /// <param name="server">A TCP, TLS, Unix-socket, HTTP or WebSocket server.</param>
    /// <param name="configuration">A StackExchange.Redis configuration string, e.g. <c>"127.0.0.1:6379"</c>.</param>
    /// <param name="options">Settings; null for the defaults.</param>
    /// <returns>The backplane; dispose it to detach.</returns>
    /// <exception cref="RedisBackplaneException">Redis is unreachable and <see cref="RedisBackplaneOptions.StartLocalOnlyIfUnreachable"/> is false.</exception>
    /// <exception cref="InvalidOperationException">The server has a relay already.</exception>
    public static RedisBackplane Attach(StreamServer server, string configuration, RedisBackplaneOptions? options = null)
        => AttachAsync(server, configuration, options).GetAwaiter().GetResult();

    /// <summary>Connects to Redis and attaches a backplane to <paramref name="server"/>; see <see cref="Attach(StreamServer, string, RedisBackplaneOptions?)"/>.</summary>
    /// <param name="server">A TCP, TLS, Unix-socket, HTTP or WebSocket server.</param>
    /// <param name="configuration">A StackExchange.Redis configuration string, e.g. <c>"127.0.0.1:6379"</c>.</param>
    /// <param name="options">Settings; null for the defaults.</param>
    /// <returns>The backplane; dispose it to detach and close its connection.</returns>
    /// <exception cref="RedisBackplaneException">Redis is unreachable and <see cref="RedisBackplaneOptions.StartLocalOnlyIfUnreachable"/> is false.</exception>
    public static async Task<RedisBackplane> AttachAsync(StreamServer server, string configuration, RedisBackplaneOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(configuration);
        options ??= new RedisBackplaneOptions();
        FrameSigner.Validate(options);
        var config = ConfigurationOptions.Parse(configuration);
        config.AbortOnConnectFail = !options.StartLocalOnlyIfUnreachable;
        config.ConnectTimeout = (int)options.ConnectTimeout.TotalMilliseconds;
        // Fail a command at once while disconnected: the client's own backlog has no byte limit.
        config.BacklogPolicy = BacklogPolicy.FailFast;
        config.ReconnectRetryPolicy = new LinearRetry(1000);
        config.ClientName ??= "netcoreserver-backplane";
        ConnectionMultiplexer redis;
        try
        {
            redis = await ConnectionMultiplexer.ConnectAsync(config).ConfigureAwait(false);
        }
        catch (RedisConnectionException e)
        {
            throw Unreachable(configuration, e);
        }
        try
        {
            return await AttachAsync(server, redis, true, options).ConfigureAwait(false);
        }
        catch
        {
            await redis.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>
    /// Attaches a backplane that uses an existing connection (left open on dispose). It must be connected, unless
    /// <see cref="RedisBackplaneOptions.StartLocalOnlyIfUnreachable"/> is true.
    /// </summary>
    /// <param name="server">A TCP, TLS, Unix-socket, HTTP or WebSocket server.</param>
    /// <param name="redis">The connection.</param>
    /// <param name="options">Settings; null for the defaults.</param>
    /// <returns>The backplane; dispose it to detach.</returns>
    /// <exception cref="RedisBackplaneException">The subscription failed and <see cref="RedisBackplaneOptions.StartLocalOnlyIfUnreachable"/> is false.</exception>
    public static Task<RedisBackplane> AttachAsync(StreamServer server, IConnectionMultiplexer redis, RedisBackplaneOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(server);
        ArgumentNullException.ThrowIfNull(redis);
        options ??= new RedisBackplaneOptions();
        FrameSigner.Validate(options);
        return AttachAsync(server, redis, false, options);
    }

    private static async Task<RedisBackplane> AttachAsync(StreamServer server, IConnectionMultiplexer redis, bool owns, RedisBackplaneOptions options)
    {
        var backplane = new RedisBackplane(server, redis, owns, options);
        try
        {
            if (!await backplane._listener.SubscribeWithinAsync(options.ConnectTimeout).ConfigureAwait(false))
            {
                if (!options.StartLocalOnlyIfUnreachable)
                    throw Unreachable(redis.Configuration, backplane._listener.LastError);
                _ = backplane._listener.SubscribeUntilDoneAsync();
            }
            lock (s_attach)
            {
                if (server.MulticastRelay != null)
                    throw new InvalidOperationException("the server has a multicast relay already; attach one backplane per server");
                server.MulticastRelay = backplane;
            }
            return backplane;
        }
        catch
        {
            await backplane.CloseAsync(attached: false).ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>
    /// Adds a session to a group (a chat room) of this node; a group has members on many nodes. The membership ends
    /// when the session disconnects. Memory: the group names of each session that joined one.
    /// </summary>
    /// <param name="session">A connected session of <see cref="Server"/>.</param>
    /// <param name="group">The group's name (at most 1024 UTF-8 bytes).</param>
    /// <returns>False if the session was in the group already, or has disconnected.</returns>
    public bool JoinGroup(StreamSession session, string group)
    {
        ArgumentNullException.ThrowIfNull(session);
        CheckGroup(group);
        return _groups.Join(session, group);
    }

    /// <summary>Removes a session from a group.</summary>
    /// <param name="session">The session.</param>
    /// <param name="group">The group's name.</param>
    /// <returns>False if it was not in the group.</returns>
    public bool LeaveGroup(StreamSession session, string group)
    {
        ArgumentNullException.ThrowIfNull(session);
        ArgumentNullException.ThrowIfNull(group);
        return _groups.Leave(session, group);
    }

    /// <summary>The groups a session of this node is in; empty once it has disconnected.</summary>
    /// <param name="sessionId">The session's id.</param>
    /// <returns>A snapshot of the group names.</returns>
    public IReadOnlyCollection<string> GroupsOf(Guid sessionId) => _groups.GroupsOf(sessionId);

    /// <summary>Sessions of this node in at least one group (what the membership table holds).</summary>
    public int SessionsInGroups => _groups.Sessions;

    /// <summary>
    /// Multicasts to the members of a group on every node: at once to this node's members (copied once, through the
    /// server's multicast), then published. Never waits for Redis.
    /// </summary>
    /// <param name="group">The group's name.</param>
    /// <param name="payload">The bytes; copied before the call returns.</param>
    /// <param name="kind">Raw bytes, or a WebSocket text or binary message. On a WebSocket server Raw must be whole
    /// frames: the other nodes refuse anything else (<see cref="StreamServer.MulticastRelayed"/>).</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastToGroup(string group, ReadOnlySpan<byte> payload, MulticastKind kind = MulticastKind.Raw)
    {
        CheckGroup(group);
        if (!Server.MulticastLocal(kind, payload, _groups.Filter(group)))
            return false;
        if (!payload.IsEmpty)
            Publish(BackplaneTarget.Group, kind, group, Guid.Empty, payload);
        return true;
    }

    /// <summary>Multicasts UTF-8 text to a group on every node; see <see cref="MulticastToGroup(string, ReadOnlySpan{byte}, MulticastKind)"/>.</summary>
    /// <param name="group">The group's name.</param>
    /// <param name="text">The text.</param>
    /// <param name="kind">Raw bytes, or a WebSocket text or binary message.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastToGroup(string group, string text, MulticastKind kind)
        => MulticastToGroup(group, Encoding.UTF8.GetBytes(text), kind);

    /// <summary>
    /// Sends to one session on whichever node holds it: directly if it is here, else published for every node to
    /// look up (no registry of sessions; a node without it ignores the message). Never waits for Redis.
    /// </summary>
    /// <param name="sessionId">The session's id.</param>
    /// <param name="payload">The bytes; copied before the call returns.</param>
    /// <param name="kind">Raw bytes, or a WebSocket text or binary message. On a WebSocket server Raw must be whole
    /// frames: the other nodes refuse anything else (<see cref="StreamServer.SendRelayed"/>).</param>
    /// <returns>True if sent here or published; false if it is not here and could not be queued.</returns>
    public bool SendToSession(Guid sessionId, ReadOnlySpan<byte> payload, MulticastKind kind = MulticastKind.Raw)
    {
        if (Server.SendLocal(sessionId, kind, payload))
            return true;
        return Publish(BackplaneTarget.Session, kind, null, sessionId, payload);
    }

    void IMulticastRelay.OnMulticast(MulticastKind kind, ReadOnlySpan<byte> payload)
        => Publish(BackplaneTarget.All, kind, null, Guid.Empty, payload);

    void IMulticastRelay.OnSessionClosed(StreamSession session) => _groups.Remove(session.Id);

    /// <summary>Detaches from the server, publishes what is queued (up to <see cref="RedisBackplaneOptions.DrainTimeout"/>) and stops listening.</summary>
    public void Dispose() => DisposeAsync().AsTask().GetAwaiter().GetResult();

    /// <summary>Detaches from the server, publishes what is queued (up to <see cref="RedisBackplaneOptions.DrainTimeout"/>) and stops listening.</summary>
    /// <returns>When done.</returns>
    public async ValueTask DisposeAsync() => await CloseAsync(attached: true).ConfigureAwait(false);

    private async Task CloseAsync(bool attached)
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
            return;
        _meter.Unregister(this);
        if (attached)
        {
            lock (s_attach)
            {
                if (ReferenceEquals(Server.MulticastRelay, this))
                    Server.MulticastRelay = null;
            }
        }
        await _publisher.DrainAsync(_options.DrainTimeout).ConfigureAwait(false);
        await _listener.UnsubscribeAsync().ConfigureAwait(false);
        _groups.Clear();
        if (_ownsRedis)
            await _redis.DisposeAsync().ConfigureAwait(false);
        _listener.Dispose();
    }

    private bool Publish(BackplaneTarget target, MulticastKind kind, string? group, Guid session, ReadOnlySpan<byte> payload)
    {
        if (payload.Length > _options.MaxMessageSize || Volatile.Read(ref _disposed) != 0)
        {
            _publisher.Drop();
            return false;
        }
        var frame = BackplaneFrame.Rent(target, kind, NodeId, group, session, payload, _signer is { Signs: true }, out var length);
        return _publisher.Offer(frame, length);
    }

    private static void CheckGroup(string group)
    {
        ArgumentNullException.ThrowIfNull(group);
        if (Encoding.UTF8.GetByteCount(group) > BackplaneFrame.MaxGroupBytes)
            throw new ArgumentException($"a group name takes at most {BackplaneFrame.MaxGroupBytes} UTF-8 bytes", nameof(group));
    }

    private static RedisBackplaneException Unreachable(string configuration, Exception? inner)
        => new($"the Redis backplane could not connect to '{configuration}'; start Redis there, or set "
            + $"{nameof(RedisBackplaneOptions)}.{nameof(RedisBackplaneOptions.StartLocalOnlyIfUnreachable)} to start this node local-only", inner);
}
