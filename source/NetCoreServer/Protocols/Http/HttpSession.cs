using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// One HTTP connection of an <see cref="HttpServer"/> (TCP). Override <see cref="OnReceivedRequest"/> and answer with
/// <see cref="SendResponseAsync(HttpResponse)"/>, in the hook or later from any thread. One request is answered at a
/// time: the next pipelined request is handed over once the current one's response is completely queued, so the
/// SendResponse methods always answer the current request (or return false when it has its answer);
/// <see cref="HttpRequest.Handle"/> answers one given request. See <see cref="HttpOptions"/> for the limits and
/// timeouts. Hooks run on the session's receive thread, one request at a time.
/// </summary>
public class HttpSession : TcpSession, IHttpServerSessionHost
{
    private readonly HttpResponder _http;

    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public HttpSession(HttpServer server)
        : base(server)
    {
        _http = new HttpResponder(server.Site);
        Protocol = _http.Install(this);
    }

    /// <summary>The server's static content cache.</summary>
    public FileCache Cache => _http.Cache;

    /// <summary>The request being received (reused for every request of the connection; copy what you keep).</summary>
    protected HttpRequest Request => _http.Request;

    /// <summary>A response to fill and send (reused; <see cref="HttpResponse.Clear"/> it, or call a Make method, first).</summary>
    public HttpResponse Response => _http.Response;

    /// <summary>Sends <see cref="Response"/> and waits until it is handed to the socket.</summary>
    /// <returns>Bytes sent; 0 when not connected.</returns>
    public long SendResponse() => _http.SendResponse(Response);

    /// <summary>
    /// Sends a response and waits until it is handed to the socket (a HEAD request gets the head only).
    /// </summary>
    /// <remarks>
    /// Behind an earlier response that still goes out in pieces (see <see cref="SendResponseAsync(HttpResponse)"/>), it is queued
    /// and this returns at once. On an event loop's thread a wait hands the loop to another thread first.
    /// </remarks>
    /// <param name="response">The response; not kept after the call returns.</param>
    /// <returns>Bytes of the response; 0 when not connected.</returns>
    public long SendResponse(HttpResponse response) => _http.SendResponse(response);

    /// <summary>Sends more body bytes of a response whose head declared them (<see cref="HttpResponse.SetBodyLength"/>), waiting until sent.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(string body) => _http.SendBody(body.AsSpan());

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(ReadOnlySpan<char> body) => _http.SendBody(body);

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(byte[] buffer) => _http.SendBody(buffer.AsSpan());

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="buffer">Buffer holding the body bytes.</param>
    /// <param name="offset">Offset of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(byte[] buffer, long offset, long size) => _http.SendBody(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendResponseBody(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendResponseBody(ReadOnlySpan<byte> buffer) => _http.SendBody(buffer);

    /// <summary>Queues <see cref="Response"/> and returns at once.</summary>
    /// <returns>True when queued.</returns>
    public bool SendResponseAsync() => _http.SendResponseAsync(Response);

    /// <summary>
    /// Queues a response as one unit (head and body together, never interleaved with another response) and returns at
    /// once. A HEAD request gets the head only; when the request asked to close the connection, it closes once this is out.
    /// </summary>
    /// <remarks>
    /// The send limit (<see cref="StreamConnection.OptionSendBufferLimit"/>) never refuses a response: one that does not
    /// fit is kept (copied) and goes out in pieces as the client reads, later responses after it, and while responses
    /// wait past the high watermark no further pipelined request is read (docs/design/http-responses.md).
    /// </remarks>
    /// <param name="response">The response (copied before the call returns).</param>
    /// <returns>True when queued; false when no request waits for a response (it has one already) or the connection closed.</returns>
    public bool SendResponseAsync(HttpResponse response) => _http.SendResponseAsync(response);

    /// <summary>
    /// Answers with a body read from <paramref name="body"/> as it goes out, never whole in memory: set only the start
    /// line and headers of <paramref name="response"/> (SetBegin, SetHeader).
    /// </summary>
    /// <remarks>
    /// Content-Length is added when the stream knows its length, chunked framing otherwise. The stream is read only while
    /// less than 1 MiB waits in the send queue (a slow client slows the producer); responses to later pipelined requests
    /// follow it in order. A body that cannot be finished (read error, cancellation, disconnect) closes the connection.
    /// </remarks>
    /// <param name="response">The response head.</param>
    /// <param name="body">The body; read to its end, not disposed.</param>
    /// <param name="cancellationToken">Stops reading the body (the connection is then closed).</param>
    /// <returns>True when the whole response was handed to the socket.</returns>
    public Task<bool> SendResponseStreamAsync(HttpResponse response, Stream body, CancellationToken cancellationToken = default)
        => _http.SendResponseStreamAsync(response, body, cancellationToken);

    /// <summary>Queues more body bytes of a response whose head declared them.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(string body) => _http.SendBodyAsync(body.AsSpan());

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(ReadOnlySpan<char> body) => _http.SendBodyAsync(body);

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(byte[] buffer) => _http.SendBodyAsync(buffer.AsSpan());

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Buffer holding the body bytes.</param>
    /// <param name="offset">Offset of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(byte[] buffer, long offset, long size) => _http.SendBodyAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues more body bytes; see <see cref="SendResponseBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendResponseBodyAsync(ReadOnlySpan<byte> buffer) => _http.SendBodyAsync(buffer);

    /// <summary>Called on the receive thread when a request head has arrived, before its body; it may choose to stream the body (<see cref="StreamRequestBody"/>).</summary>
    /// <param name="request">The request so far (method, URL, headers); reused for the next request.</param>
    protected virtual void OnReceivedRequestHeader(HttpRequest request)
    {
    }

    /// <summary>
    /// Called from <see cref="OnReceivedRequestHeader"/>: this request's body goes to <see cref="OnReceivedRequestBody"/>
    /// piece by piece as it arrives instead of into <see cref="HttpRequest.Body"/>, so it may pass <see cref="HttpOptions.MaxBodySize"/>.
    /// </summary>
    /// <remarks>
    /// Chunked coding is removed; an upload costs no more memory than one receive buffer. <see cref="OnReceivedRequest"/>
    /// follows the last piece, with an empty body. A body over <paramref name="maxBodySize"/> is answered 413 and the
    /// connection closes (over HTTP/2, the stream is reset and the connection goes on; the client sends no further than
    /// the stream's window past what this hook took).
    /// </remarks>
    /// <param name="maxBodySize">The most body bytes accepted for this request; no limit by default.</param>
    /// <exception cref="InvalidOperationException">Not called from <see cref="OnReceivedRequestHeader"/>.</exception>
    protected void StreamRequestBody(long maxBodySize = long.MaxValue) => _http.StreamRequestBody(maxBodySize);

    /// <summary>
    /// Called with each piece of a request body streamed by <see cref="StreamRequestBody"/>, in order, on the receive
    /// thread (the next bytes are read once it returns, so a slow consumer slows its client, not the server's memory).
    /// </summary>
    /// <param name="request">The request whose body this is (head only).</param>
    /// <param name="piece">Body bytes, valid during the call only.</param>
    protected virtual void OnReceivedRequestBody(HttpRequest request, ReadOnlySpan<byte> piece)
    {
    }

    /// <summary>Called on the receive thread for each complete request; answer it with one of the SendResponse methods.</summary>
    /// <param name="request">The request (reused: valid until the next request arrives; copy what you keep).</param>
    protected virtual void OnReceivedRequest(HttpRequest request)
    {
    }

    /// <summary>Called on the receive thread for a GET or HEAD of static content; the default sends the prepared response.</summary>
    /// <param name="request">The request (reused for the next request).</param>
    /// <param name="content">The prepared response, shared by every session: read it, never change it.</param>
    protected virtual void OnReceivedCachedRequest(HttpRequest request, byte[] content) => _http.SendPrepared(content);

    /// <summary>
    /// Called on the receive thread for a request that cannot be read (malformed, or past a limit). The session then
    /// answers with the matching status (400, 413, 414, 431, 501, 505) and closes the connection.
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
        _http.Release();
        base.NotifyReleased();
    }

    // Offers a complete request to a protocol upgrade before OnReceivedRequest; plain HTTP sessions take none.
    private protected virtual HttpUpgrade UpgradeRequest(HttpRequest request) => HttpUpgrade.None;

    HttpOptions IHttpServerSessionHost.Options => _http.Options;

    byte[]? IHttpServerSessionHost.FindCached(HttpRequest request, out StaticStream? streamed) => _http.FindCached(request, out streamed);

    void IHttpServerSessionHost.RaiseRequestHeader(HttpRequest request) => OnReceivedRequestHeader(request);

    void IHttpServerSessionHost.RaiseRequestBody(HttpRequest request, ReadOnlySpan<byte> piece) => OnReceivedRequestBody(request, piece);

    void IHttpServerSessionHost.RaiseRequest(HttpRequest request) => OnReceivedRequest(request);

    void IHttpServerSessionHost.RaiseCachedRequest(HttpRequest request, byte[] content) => OnReceivedCachedRequest(request, content);

    void IHttpServerSessionHost.RaiseRequestError(HttpRequest request, string error) => OnReceivedRequestError(request, error);

    HttpUpgrade IHttpServerSessionHost.Upgrade(HttpRequest request) => UpgradeRequest(request);

    bool IHttpServerSessionHost.SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking) => SendMessage(head, body, blocking);

    SendStatus IHttpServerSessionHost.TrySendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body) => TrySendMessage(head, body);

    SendStatus IHttpServerSessionHost.TrySendBorrowed(ArraySegment<byte> bytes) => TrySendBorrowed(bytes);

    long IHttpServerSessionHost.SendRoom => SendRoom;

    void IHttpServerSessionHost.HoldReceiving() => HoldReceiving();

    void IHttpServerSessionHost.ReleaseReceiving() => ReleaseReceiving();

    void IHttpServerSessionHost.Disconnect() => Disconnect();

    void IHttpServerSessionHost.SwitchProtocol(Protocols.IStreamProtocol protocol) => Protocol = protocol;

    // Over TCP the engine has no TLS state: default, never h2.
    bool IHttpServerSessionHost.NegotiatedHttp2 => Connections.TlsState.ApplicationProtocol(Engine) == System.Net.Security.SslApplicationProtocol.Http2;

    (System.Security.Authentication.SslProtocols, System.Net.Security.TlsCipherSuite) IHttpServerSessionHost.Tls
        => (Connections.TlsState.Protocol(Engine), Connections.TlsState.CipherSuite(Engine));

    bool IHttpServerSessionHost.RaiseFromPool(object state, Action<object> hooks)
        => Engine is { } engine && engine.RunHook(HookKind.Other, (state, hooks), static (_, call) => call.hooks(call.state));

    Task<bool> IHttpServerSessionHost.FlushAsync(CancellationToken cancellationToken) => FlushAsync(cancellationToken);
}
