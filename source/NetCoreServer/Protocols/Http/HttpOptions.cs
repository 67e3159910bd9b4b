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
    private long _responseTimeoutTicks = TimeSpan.FromSeconds(120).Ticks;
    private long _bodyGraceTicks = TimeSpan.FromSeconds(5).Ticks;
    private double _minBodyRate = 240;
    private int _http2MaxStreams = 100;
    private long _http2SettingsTimeoutTicks = TimeSpan.FromSeconds(10).Ticks;

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
    /// Then it is closed without an answer. The clock also runs while a response goes out: one of which nothing is sent
    /// for this long (a client that stopped reading) is closed. A request waiting for its response is timed by
    /// <see cref="ResponseTimeout"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public TimeSpan KeepAliveTimeout
    {
        get => TimeSpan.FromTicks(Interlocked.Read(ref _keepAliveTimeoutTicks));
        set => Interlocked.Exchange(ref _keepAliveTimeoutTicks, Positive(value).Ticks);
    }

    /// <summary>
    /// How long a request read whole may wait for its response to begin: 120 seconds by default,
    /// <see cref="Timeout.InfiniteTimeSpan"/> for none (long polling). Then it is answered 503 with
    /// <c>Connection: close</c> and the connection closes: the requests pipelined behind it are never answered in its
    /// place, and a response sent for it later is refused.
    /// </summary>
    /// <remarks>
    /// 503 (Service Unavailable) because the server, not the client, failed to answer in time, and a client may retry
    /// it elsewhere or later; 504 is for gateways and 408 for a client that was too slow. A response that has begun is
    /// timed by <see cref="KeepAliveTimeout"/> instead: it is closed when nothing of it is sent for that long.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException">The value is neither positive nor infinite.</exception>
    public TimeSpan ResponseTimeout
    {
        get => TimeSpan.FromTicks(Interlocked.Read(ref _responseTimeoutTicks));
        set => Interlocked.Exchange(ref _responseTimeoutTicks, value == Timeout.InfiniteTimeSpan ? value.Ticks : Positive(value).Ticks);
    }

    /// <summary>
    /// The slowest a request body may arrive, in bytes per second: 240 by default (as Kestrel), 0 to turn the check off.
    /// The rate is measured over consecutive windows of <see cref="MinRequestBodyDataRateGracePeriod"/>, the first from
    /// the end of the head: a body slower than this in any window (a client that sent a head, or most of a body, and
    /// then stalls) is answered 408 and closed within two windows, so it cannot hold a session and its buffer.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative or not finite.</exception>
    public double MinRequestBodyDataRate
    {
        get => Volatile.Read(ref _minBodyRate);
        set => Volatile.Write(ref _minBodyRate, value >= 0 && double.IsFinite(value) ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "A rate must be zero or positive."));
    }

    /// <summary>
    /// How long a request body may arrive at any speed before <see cref="MinRequestBodyDataRate"/> applies, and the
    /// window that rate is then measured over: 5 seconds by default (room for TCP slow start and a client's first buffer).
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

    /// <summary>
    /// Whether a client that opens the connection with the HTTP/2 preface (h2c with prior knowledge, e.g.
    /// <c>curl --http2-prior-knowledge</c>) is served HTTP/2: true by default. An HTTP/1.1 client never sends the
    /// preface, so HTTP/1.1 is served exactly as before either way; false answers the preface 505 as HTTP/1.1 does.
    /// Over TLS (<see cref="HttpsServer"/>) HTTP/2 is chosen by ALPN instead, when the server's
    /// <see cref="SslContext.ApplicationProtocols"/> lists h2 (off by default: the list is empty).
    /// </summary>
    public bool Http2Enabled { get; set; } = true;

    /// <summary>
    /// The most HTTP/2 streams a client may have open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS): 100
    /// by default. Each holds a request and its body until answered; a stream past it is refused (REFUSED_STREAM).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public int Http2MaxConcurrentStreams
    {
        get => Volatile.Read(ref _http2MaxStreams);
        set => Volatile.Write(ref _http2MaxStreams, value > 0 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "The limit must be positive."));
    }

    /// <summary>
    /// How long an HTTP/2 client may take to acknowledge this side's SETTINGS (RFC 9113 §6.5.3): 10 seconds by default,
    /// <see cref="Timeout.InfiniteTimeSpan"/> for no limit. Then the connection gets GOAWAY SETTINGS_TIMEOUT and closes.
    /// The acknowledgement is owed by the client's HTTP/2 stack at once, so this is a round trip with room for the slowest
    /// links; a peer that never sends it may not be applying the limits the SETTINGS announced.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is neither positive nor infinite.</exception>
    public TimeSpan Http2SettingsTimeout
    {
        get => TimeSpan.FromTicks(Interlocked.Read(ref _http2SettingsTimeoutTicks));
        set => Interlocked.Exchange(ref _http2SettingsTimeoutTicks, value == Timeout.InfiniteTimeSpan ? value.Ticks : Positive(value).Ticks);
    }

    private static TimeSpan Positive(TimeSpan value)
        => value > TimeSpan.Zero && value != Timeout.InfiniteTimeSpan ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "A timeout must be positive and finite.");
}
