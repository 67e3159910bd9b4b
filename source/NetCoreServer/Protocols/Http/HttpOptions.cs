using System;
using System.Threading;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// How much an HTTP peer may send and how long it may take, for every session of an <see cref="HttpServer"/> or
/// <see cref="HttpsServer"/> (read when a request arrives, so changes apply to the next one). Each limit has a safe
/// default and an answer: a request line over <see cref="MaxRequestLineSize"/> gets 414, a head over
/// <see cref="MaxHeadSize"/> or <see cref="MaxHeaderCount"/> 431, a body over <see cref="MaxBodySize"/> 413, malformed
/// framing 400; then the connection closes.
/// </summary>
public sealed class HttpOptions
{
    private long _headerTimeoutTicks = TimeSpan.FromSeconds(30).Ticks;
    private long _keepAliveTimeoutTicks = TimeSpan.FromSeconds(120).Ticks;
    private long _bodyGraceTicks = TimeSpan.FromSeconds(5).Ticks;
    private double _minBodyRate = 240;

    internal Protocols.Http.HttpLimits Limits { get; } = new();

    /// <summary>The longest request line (method, target, version): 8 KiB by default. Protects against endless URLs.</summary>
    public int MaxRequestLineSize
    {
        get => Limits.MaxRequestLineSize;
        set => Limits.MaxRequestLineSize = value;
    }

    /// <summary>The longest request head (request line and header fields): 32 KiB by default. Keep it below the sessions' receive limit (default 1 MiB).</summary>
    public int MaxHeadSize
    {
        get => Limits.MaxHeadSize;
        set => Limits.MaxHeadSize = value;
    }

    /// <summary>The most header fields in a request: 100 by default.</summary>
    public int MaxHeaderCount
    {
        get => Limits.MaxHeaderCount;
        set => Limits.MaxHeaderCount = value;
    }

    /// <summary>The largest request body, which is kept whole in memory for <c>OnReceivedRequest</c>: 16 MiB by default.</summary>
    public long MaxBodySize
    {
        get => Limits.MaxBodySize;
        set => Limits.MaxBodySize = value;
    }

    /// <summary>
    /// How long a client may take to send a request head once it has begun: 30 seconds by default. A slow client (one
    /// byte now and then) is answered 408 and closed, so it cannot hold a session forever.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public TimeSpan HeaderTimeout
    {
        get => TimeSpan.FromTicks(Interlocked.Read(ref _headerTimeoutTicks));
        set => Interlocked.Exchange(ref _headerTimeoutTicks, Positive(value).Ticks);
    }

    /// <summary>
    /// How long a kept-alive connection may stay idle between requests (and before the first): 120 seconds by default.
    /// Then it is closed without an answer. The clock also runs while a request waits for its answer and nothing is
    /// being sent: a request nobody answers is closed after this long.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public TimeSpan KeepAliveTimeout
    {
        get => TimeSpan.FromTicks(Interlocked.Read(ref _keepAliveTimeoutTicks));
        set => Interlocked.Exchange(ref _keepAliveTimeoutTicks, Positive(value).Ticks);
    }

    /// <summary>
    /// The slowest a request body may arrive, in bytes per second averaged from the end of its head: 240 by default (as
    /// Kestrel), 0 to turn the check off. A body slower than this once <see cref="MinRequestBodyDataRateGracePeriod"/>
    /// has passed (a client that sent a head and then stalls) is answered 408 and closed, so it cannot hold a session.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative or not finite.</exception>
    public double MinRequestBodyDataRate
    {
        get => Volatile.Read(ref _minBodyRate);
        set => Volatile.Write(ref _minBodyRate, value >= 0 && double.IsFinite(value) ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "A rate must be zero or positive."));
    }

    /// <summary>
    /// How long a request body may arrive at any speed before <see cref="MinRequestBodyDataRate"/> applies: 5 seconds
    /// by default (room for TCP slow start and a client's first buffer).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public TimeSpan MinRequestBodyDataRateGracePeriod
    {
        get => TimeSpan.FromTicks(Interlocked.Read(ref _bodyGraceTicks));
        set => Interlocked.Exchange(ref _bodyGraceTicks, Positive(value).Ticks);
    }

    /// <summary>
    /// Whether an HTTP/1.1 request without a Host field gets 400 and a close, as RFC 9112 section 3.2 asks. False by
    /// default, as in NetCoreServer, whose own HttpClient sends no Host; set true for the RFC's rule. Two Host fields,
    /// or an invalid one, are refused either way, and a WebSocket upgrade always needs one.
    /// </summary>
    /// <remarks>Why the default differs from the RFC: docs/design/netcoreserver-behaviour.md.</remarks>
    public bool RequireHost { get; set; }

    private static TimeSpan Positive(TimeSpan value)
        => value > TimeSpan.Zero && value != Timeout.InfiniteTimeSpan ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "A timeout must be positive and finite.");
}
