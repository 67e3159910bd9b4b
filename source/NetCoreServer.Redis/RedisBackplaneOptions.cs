using System;

namespace NetCoreServer.Redis;

/// <summary>Settings of a <see cref="RedisBackplane"/>; read once when it attaches.</summary>
public sealed class RedisBackplaneOptions
{
    /// <summary>Default of <see cref="MaxQueuedMessages"/> (65,536).</summary>
    public const int DefaultMaxQueuedMessages = 65536;

    /// <summary>Default of <see cref="MaxQueuedBytes"/> (64 MiB).</summary>
    public const long DefaultMaxQueuedBytes = 64L << 20;

    /// <summary>Default of <see cref="MaxMessageSize"/> (16 MiB).</summary>
    public const int DefaultMaxMessageSize = 16 << 20;

    /// <summary>
    /// The Redis channel every node of one cluster publishes on and listens to; nodes of another cluster on the same
    /// Redis use another name. Default <c>"netcoreserver:backplane"</c>.
    /// </summary>
    public string Channel { get; set; } = "netcoreserver:backplane";

    /// <summary>
    /// Most messages waiting to be published; a multicast beyond it is delivered locally but not published, and
    /// counted in <see cref="RedisBackplane.Dropped"/>. It keeps a Redis that is slow or gone from growing memory
    /// without bound, and Multicast from ever waiting. Default <see cref="DefaultMaxQueuedMessages"/>.
    /// </summary>
    public int MaxQueuedMessages { get; set; } = DefaultMaxQueuedMessages;

    /// <summary>Most bytes waiting to be published (see <see cref="MaxQueuedMessages"/>). Default <see cref="DefaultMaxQueuedBytes"/>.</summary>
    public long MaxQueuedBytes { get; set; } = DefaultMaxQueuedBytes;

    /// <summary>
    /// Largest payload published; a larger one is delivered locally only and counted in <see cref="RedisBackplane.Dropped"/>.
    /// Default <see cref="DefaultMaxMessageSize"/> (16 MiB).
    /// </summary>
    /// <remarks>
    /// Redis holds each message whole in every node's output buffer, whose pub/sub limit (32 MB by default) disconnects a
    /// node that falls behind (docs/design/redis-backplane.md).
    /// </remarks>
    public int MaxMessageSize { get; set; } = DefaultMaxMessageSize;

    /// <summary>
    /// False (the default): attaching throws <see cref="RedisBackplaneException"/> when Redis cannot be reached, so a
    /// misconfigured node fails at start. True: the node starts local-only, counts what it could not publish as dropped,
    /// and joins the cluster when Redis comes up. Only for a backplane that makes its own connection.
    /// </summary>
    public bool StartLocalOnlyIfUnreachable { get; set; }

    /// <summary>How long the first connection to Redis may take. Default 5 seconds.</summary>
    public TimeSpan ConnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>How long disposing the backplane waits for queued messages to be published. Default 2 seconds.</summary>
    public TimeSpan DrainTimeout { get; set; } = TimeSpan.FromSeconds(2);
}
