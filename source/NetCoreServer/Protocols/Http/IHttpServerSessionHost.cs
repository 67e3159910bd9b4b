using System;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Http;

/// <summary>What the server side of HTTP needs from its session: <see cref="HttpSession"/> (TCP) or <see cref="HttpsSession"/> (TLS).</summary>
internal interface IHttpServerSessionHost
{
    HttpOptions Options { get; }

    /// <summary>
    /// What to send for a GET or HEAD of static content (200, 206, 304, 416, or 400 for a path leaving the served
    /// directory), or null; for a file too large to cache, null and the part to stream from the disk.
    /// </summary>
    byte[]? FindCached(HttpRequest request, out StaticStream? streamed);

    void RaiseRequestHeader(HttpRequest request);

    void RaiseRequestBody(HttpRequest request, ReadOnlySpan<byte> piece);

    void RaiseRequest(HttpRequest request);

    void RaiseCachedRequest(HttpRequest request, byte[] content);

    void RaiseRequestError(HttpRequest request, string error);

    /// <summary>Offers a complete request to a protocol upgrade (WebSocket) before the request hooks; see <see cref="HttpUpgrade"/>.</summary>
    HttpUpgrade Upgrade(HttpRequest request);

    /// <summary>Queues a message of one or two pieces as one unit; false when refused.</summary>
    bool SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking);

    /// <summary>Queues a message of one or two pieces as one unit, without reporting a refusal.</summary>
    SendStatus TrySendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body);

    /// <summary>Queues bytes by reference (unchanged until sent), without reporting a refusal.</summary>
    SendStatus TrySendBorrowed(ArraySegment<byte> bytes);

    /// <summary>How many more bytes the send queue takes before its high watermark.</summary>
    long SendRoom { get; }

    /// <summary>False while the bytes waiting to be sent are past the high watermark.</summary>
    bool IsWritable { get; }

    /// <summary>Bytes sent over the connection's life.</summary>
    long BytesSent { get; }

    /// <summary>From inside <see cref="IStreamProtocol.Received"/>: read nothing more until <see cref="ReleaseReceiving"/>.</summary>
    void HoldReceiving();

    /// <summary>Ends <see cref="HoldReceiving"/>: what was left unconsumed is handed over again.</summary>
    void ReleaseReceiving();

    /// <summary>Bytes queued and not yet handed to the socket.</summary>
    long BytesPending { get; }

    /// <summary>Completes when everything queued so far is handed to the socket (false if the connection ended first).</summary>
    Task<bool> FlushAsync(CancellationToken cancellationToken);

    void Disconnect();

    /// <summary>
    /// Runs hooks off the receive loop (HTTP/2 hands a waiting request to the hooks on the thread pool) under the rule
    /// of <see cref="Hooks"/>: an exception goes to OnHandlerException and closes the connection. False when it threw,
    /// or the connection is gone.
    /// </summary>
    bool RaiseFromPool(object state, Action<object> hooks);

    /// <summary>Puts <paramref name="protocol"/> in the connection's protocol slot (HTTP/2 chosen on the first bytes).</summary>
    void SwitchProtocol(IStreamProtocol protocol);

    /// <summary>
    /// TLS chose "h2" by ALPN (the server's SslContext.ApplicationProtocols lists it and the client asked
    /// for it): the connection speaks HTTP/2 from its first byte (RFC 9113 §3.2).
    /// </summary>
    bool NegotiatedHttp2 { get; }

    /// <summary>The TLS version and cipher suite agreed (None and 0 without TLS), for RFC 9113 §9.2's check.</summary>
    (System.Security.Authentication.SslProtocols Protocol, System.Net.Security.TlsCipherSuite CipherSuite) Tls { get; }

    /// <summary>The metrics of the session's server (null before it started).</summary>
    Diagnostics.ServerMetrics? Metrics => ((this as IStreamSessionHost)?.EngineOptions.Owner as Diagnostics.IMetricsOwner)?.Metrics;

    /// <summary>The wheel that times the connection's keep-alive, header and body timeouts: its server's.</summary>
    TimerWheel Timers => (this as IStreamSessionHost)?.EngineOptions.Timers ?? TimerWheel.Shared;
}
