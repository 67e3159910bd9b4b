using System;
using System.Collections.Generic;

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

    /// <summary>Shortest secret taken (16 bytes); 32 random bytes are recommended.</summary>
    public const int MinSecretSize = 16;

    /// <summary>Default of <see cref="MaxFrameAge"/> (30 seconds).</summary>
    public static readonly TimeSpan DefaultMaxFrameAge = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The shared secret this node signs its frames with (HMAC-SHA256 over the whole frame, with its time and the
    /// channel's name), at least <see cref="MinSecretSize"/> bytes; null (the default) to sign nothing. With a secret
    /// (here or in <see cref="AcceptedSecrets"/>) this node takes only frames signed with one of its secrets, fresh
    /// (<see cref="MaxFrameAge"/>) and not seen before (each node's sequence numbers), unless
    /// <see cref="AcceptUnsignedFrames"/>; without any, it takes every frame and checks no signature. Rolling a secret
    /// out node by node, and changing it, are described in docs/design/redis-backplane.md.
    /// </summary>
    public byte[]? Secret { get; set; }

    /// <summary>
    /// Further secrets whose signatures this node accepts without signing with them: the next secret before any node
    /// signs with it, or the previous one until no node signs with it any more. Empty by default.
    /// </summary>
    public IList<byte[]> AcceptedSecrets { get; } = new List<byte[]>();

    /// <summary>
    /// True: a node with a secret also takes unsigned frames, for the time a secret is being rolled out and some nodes
    /// do not sign yet (an unsigned frame is then as trusted as without a secret). False (the default): unsigned frames
    /// are refused and counted (<see cref="BackplaneRefusal.Unsigned"/>). Ignored without a secret.
    /// </summary>
    public bool AcceptUnsignedFrames { get; set; }

    /// <summary>
    /// How far a signed frame's time may be from this node's clock (either way) and still be taken; an older frame is
    /// refused as replayed. It bounds how long a captured frame could be replayed to a node that has not seen its
    /// publisher yet, and must exceed the clock difference between nodes. Default <see cref="DefaultMaxFrameAge"/>.
    /// </summary>
    public TimeSpan MaxFrameAge { get; set; } = DefaultMaxFrameAge;

    /// <summary>The clock of <see cref="MaxFrameAge"/> and of the time in signed frames; <see cref="TimeProvider.System"/> by default.</summary>
    public TimeProvider TimeProvider { get; set; } = TimeProvider.System;
}
