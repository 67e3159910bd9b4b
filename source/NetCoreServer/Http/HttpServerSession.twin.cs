using System;
using NetCoreServer.Http;

// twin: NetCoreServer.HttpSession NetCoreServer.HttpsSession
    private readonly HttpServerProtocol _http;

    /// <summary>The server's static content cache.</summary>
    public FileCache Cache { get; private set; } = null!;

    /// <summary>The request being received (reused for every request of the connection; copy what you keep).</summary>
    protected HttpRequest Request { get; } = new();

    /// <summary>A response to fill and send (reused; <see cref="HttpResponse.Clear"/> it, or call a Make method, first).</summary>
    public HttpResponse Response { get; } = new();

    internal HttpOptions Options { get; private set; } = null!;

    /// <summary>Puts HTTP in this connection's protocol slot (from the constructor).</summary>
    private HttpServerProtocol InstallHttp(FileCache cache, HttpOptions options)
    {
        Cache = cache;
        Options = options;
        var http = new HttpServerProtocol(this, Request);
        Protocol = http;
        return http;
    }

    HttpOptions IHttpServerSessionHost.Options => Options;

    /// <summary>Sends <see cref="Response"/> and waits until it is handed to the socket.</summary>
    /// <returns>Bytes sent; 0 when not connected.</returns>
    public long SendResponse() => SendResponse(Response);

    /// <summary>
    /// Sends a response and waits until it is handed to the socket (a HEAD request gets the head only). Behind an
    /// earlier response that still goes out in pieces (see <see cref="SendResponseAsync(HttpResponse)"/>), it is queued
    /// after it and this returns at once; so it does on an event loop's thread, where waiting could wait for the loop.
    /// </summary>
    /// <param name="response">The response.</param>
    /// <returns>Bytes of the response; 0 when not connected.</returns>
    public long SendResponse(HttpResponse response) => _http.SendResponse(response, blocking: true) ? response.Cache.Size : 0;

    /// <summary>Sends more body bytes of a response whose head declared them (<see cref="HttpResponse.SetBodyLength"/>), waiting until sent.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(string body) => SendBodyText(body, blocking: true);

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(ReadOnlySpan<char> body) => SendBodyText(body, blocking: true);

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(byte[] buffer) => SendResponseBody(buffer.AsSpan());

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="buffer">Buffer holding the body bytes.</param>
    /// <param name="offset">Offset of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(byte[] buffer, long offset, long size) => SendResponseBody(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(ReadOnlySpan<byte> buffer) => _http.SendBody(buffer, blocking: true) ? buffer.Length : 0;

    /// <summary>Queues <see cref="Response"/> and returns at once.</summary>
    /// <returns>True when queued.</returns>
    public bool SendResponseAsync() => SendResponseAsync(Response);

    /// <summary>
    /// Queues a response as one unit (head and body together, never interleaved with another response) and returns at
    /// once. A HEAD request gets the head only; a request that asked to close the connection has it closed once this is
    /// out. The send limit (<see cref="StreamConnection.OptionSendBufferLimit"/>) never refuses a response: one that does
    /// not fit is kept (copied) and goes out in pieces as the client reads, later responses after it, and while
    /// responses wait past the high watermark no further pipelined request is read.
    /// </summary>
    /// <param name="response">The response (copied before the call returns).</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseAsync(HttpResponse response) => _http.SendResponse(response, blocking: false);

    /// <summary>
    /// Answers with a body read from <paramref name="body"/> as it goes out, never whole in memory: set only the start
    /// line and headers of <paramref name="response"/> (SetBegin, SetHeader); Content-Length is added when the stream
    /// knows its length, chunked framing otherwise. The stream is read only while less than 1 MiB waits in the send
    /// queue (a slow client slows the producer); responses to later pipelined requests follow it in order. A body
    /// that cannot be finished (read error, cancellation, disconnect) closes the connection.
    /// </summary>
    /// <param name="response">The response head.</param>
    /// <param name="body">The body; read to its end, not disposed.</param>
    /// <param name="cancellationToken">Stops reading the body (the connection is then closed).</param>
    /// <returns>True when the whole response was handed to the socket.</returns>
    public System.Threading.Tasks.Task<bool> SendResponseStreamAsync(HttpResponse response, System.IO.Stream body, System.Threading.CancellationToken cancellationToken = default)
        => _http.SendStreamAsync(response, body, cancellationToken);

    /// <summary>Queues more body bytes of a response whose head declared them.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(string body) => SendBodyText(body, blocking: false) > 0 || body.Length == 0;

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(ReadOnlySpan<char> body) => SendBodyText(body, blocking: false) > 0 || body.IsEmpty;

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(byte[] buffer) => SendResponseBodyAsync(buffer.AsSpan());

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Buffer holding the body bytes.</param>
    /// <param name="offset">Offset of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(byte[] buffer, long offset, long size) => SendResponseBodyAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(ReadOnlySpan<byte> buffer) => _http.SendBody(buffer, blocking: false);

    /// <summary>Body text as UTF-8, in order with the responses (behind one still going out in pieces); bytes sent, 0 when not.</summary>
    private long SendBodyText(ReadOnlySpan<char> text, bool blocking)
    {
        if (text.IsEmpty)
            return 0;
        var buffer = System.Buffers.ArrayPool<byte>.Shared.Rent(System.Text.Encoding.UTF8.GetMaxByteCount(text.Length));
        try
        {
            // The outbox copies what it keeps, so the buffer goes back at once.
            var length = System.Text.Encoding.UTF8.GetBytes(text, buffer);
            return _http.SendBody(buffer.AsSpan(0, length), blocking) ? length : 0;
        }
        finally
        {
            System.Buffers.ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>Called when a request head has arrived, before its body.</summary>
    /// <param name="request">The request so far (method, URL, headers).</param>
    protected virtual void OnReceivedRequestHeader(HttpRequest request)
    {
    }

    /// <summary>Called for each complete request; answer it with one of the SendResponse methods.</summary>
    /// <param name="request">The request (valid until the next request arrives).</param>
    protected virtual void OnReceivedRequest(HttpRequest request)
    {
    }

    /// <summary>Called for a GET or HEAD of static content; the default sends the prepared response.</summary>
    /// <param name="request">The request.</param>
    /// <param name="content">The prepared response.</param>
    protected virtual void OnReceivedCachedRequest(HttpRequest request, byte[] content) => _http.SendPrepared(content);

    /// <summary>
    /// Called for a request that cannot be read (malformed, or past a limit). The session then answers with the
    /// matching status (400, 413, 414, 431, 501, 505) and closes the connection.
    /// </summary>
    /// <param name="request">What was read of the request.</param>
    /// <param name="error">What was wrong.</param>
    protected virtual void OnReceivedRequestError(HttpRequest request, string error)
    {
    }

    private protected override void NotifyConnected()
    {
        base.NotifyConnected();
        _http.Start();
    }

    private protected override void NotifyReleased()
    {
        _http.Stop();
        // Request and response buffers grown by large messages become garbage with the session: counted, so that the
        // collection after a burst runs when many such sessions end (a quiet server allocates nothing, so no GC would).
        NetCoreServer.Core.EngineBuffers.Released(Request.Cache.Capacity + Response.Cache.Capacity);
        base.NotifyReleased();
    }

    byte[]? IHttpServerSessionHost.FindCached(HttpRequest request) => StaticContent.Answer(Cache, request);

    void IHttpServerSessionHost.RaiseRequestHeader(HttpRequest request) => OnReceivedRequestHeader(request);

    void IHttpServerSessionHost.RaiseRequest(HttpRequest request) => OnReceivedRequest(request);

    void IHttpServerSessionHost.RaiseCachedRequest(HttpRequest request, byte[] content) => OnReceivedCachedRequest(request, content);

    void IHttpServerSessionHost.RaiseRequestError(HttpRequest request, string error) => OnReceivedRequestError(request, error);

    HttpUpgrade IHttpServerSessionHost.Upgrade(HttpRequest request) => UpgradeRequest(request);

    /// <summary>Offers a complete request to a protocol upgrade before OnReceivedRequest; plain HTTP sessions take none.</summary>
    private protected virtual HttpUpgrade UpgradeRequest(HttpRequest request) => HttpUpgrade.None;

    bool IHttpServerSessionHost.SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking) => SendMessage(head, body, blocking);

    NetCoreServer.Core.SendStatus IHttpServerSessionHost.TrySendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body) => TrySendMessage(head, body);

    NetCoreServer.Core.SendStatus IHttpServerSessionHost.TrySendBorrowed(ArraySegment<byte> bytes) => TrySendBorrowed(bytes);

    long IHttpServerSessionHost.SendRoom => SendRoom;

    void IHttpServerSessionHost.HoldReceiving() => HoldReceiving();

    void IHttpServerSessionHost.ReleaseReceiving() => ReleaseReceiving();

    void IHttpServerSessionHost.Disconnect() => Disconnect();

    System.Threading.Tasks.Task<bool> IHttpServerSessionHost.FlushAsync(System.Threading.CancellationToken cancellationToken) => FlushAsync(cancellationToken);
