using System;
using System.Threading;

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

    internal Http.HttpLimits Limits { get; } = new();

    /// <summary>The longest request line (method, target, version): 8 KiB by default. Protects against endless URLs.</summary>
    public int MaxRequestLineSize
    {
        get => Limits.MaxRequestLineSize;
        set => Limits.MaxRequestLineSize = value;
    }

    /// <summary>The longest request head (request line and header fields): 32 KiB by default. Keep it below the sessions' receive limit (1 MiB).</summary>
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
    /// Then it is closed without an answer.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public TimeSpan KeepAliveTimeout
    {
        get => TimeSpan.FromTicks(Interlocked.Read(ref _keepAliveTimeoutTicks));
        set => Interlocked.Exchange(ref _keepAliveTimeoutTicks, Positive(value).Ticks);
    }

    private static TimeSpan Positive(TimeSpan value)
        => value > TimeSpan.Zero && value != Timeout.InfiniteTimeSpan ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "A timeout must be positive and finite.");
}
