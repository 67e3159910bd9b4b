using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// One HTTPS connection of an <see cref="HttpsServer"/> (HTTP over TLS): <see cref="HttpSession"/> over
/// <see cref="SslSession"/>, forwarding to the same HTTP component; requests arrive after the handshake.
/// </summary>
public class HttpsSession : SslSession, IHttpServerSessionHost
{
    private readonly HttpResponder _http;

    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public HttpsSession(HttpsServer server)
        : base(server)
    {
        _http = new HttpResponder(server.Site);
        Protocol = _http.Install(this);
    }

    /// <inheritdoc cref="HttpSession.Cache"/>
    public FileCache Cache => _http.Cache;

    /// <inheritdoc cref="HttpSession.Request"/>
    protected HttpRequest Request => _http.Request;

    /// <inheritdoc cref="HttpSession.Response"/>
    public HttpResponse Response => _http.Response;

    /// <inheritdoc cref="HttpSession.SendResponse()"/>
    public long SendResponse() => _http.SendResponse(Response);

    /// <inheritdoc cref="HttpSession.SendResponse(HttpResponse)"/>
    public long SendResponse(HttpResponse response) => _http.SendResponse(response);

    /// <inheritdoc cref="HttpSession.SendResponseBody(string)"/>
    public long SendResponseBody(string body) => _http.SendBody(body.AsSpan());

    /// <inheritdoc cref="HttpSession.SendResponseBody(ReadOnlySpan{char})"/>
    public long SendResponseBody(ReadOnlySpan<char> body) => _http.SendBody(body);

    /// <inheritdoc cref="HttpSession.SendResponseBody(byte[])"/>
    public long SendResponseBody(byte[] buffer) => _http.SendBody(buffer.AsSpan());

    /// <inheritdoc cref="HttpSession.SendResponseBody(byte[], long, long)"/>
    public long SendResponseBody(byte[] buffer, long offset, long size) => _http.SendBody(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="HttpSession.SendResponseBody(ReadOnlySpan{byte})"/>
    public long SendResponseBody(ReadOnlySpan<byte> buffer) => _http.SendBody(buffer);

    /// <inheritdoc cref="HttpSession.SendResponseAsync()"/>
    public bool SendResponseAsync() => _http.SendResponseAsync(Response);

    /// <inheritdoc cref="HttpSession.SendResponseAsync(HttpResponse)"/>
    public bool SendResponseAsync(HttpResponse response) => _http.SendResponseAsync(response);

    /// <inheritdoc cref="HttpSession.SendResponseStreamAsync(HttpResponse, Stream, CancellationToken)"/>
    public Task<bool> SendResponseStreamAsync(HttpResponse response, Stream body, CancellationToken cancellationToken = default)
        => _http.SendResponseStreamAsync(response, body, cancellationToken);

    /// <inheritdoc cref="HttpSession.SendResponseBodyAsync(string)"/>
    public bool SendResponseBodyAsync(string body) => _http.SendBodyAsync(body.AsSpan());

    /// <inheritdoc cref="HttpSession.SendResponseBodyAsync(ReadOnlySpan{char})"/>
    public bool SendResponseBodyAsync(ReadOnlySpan<char> body) => _http.SendBodyAsync(body);

    /// <inheritdoc cref="HttpSession.SendResponseBodyAsync(byte[])"/>
    public bool SendResponseBodyAsync(byte[] buffer) => _http.SendBodyAsync(buffer.AsSpan());

    /// <inheritdoc cref="HttpSession.SendResponseBodyAsync(byte[], long, long)"/>
    public bool SendResponseBodyAsync(byte[] buffer, long offset, long size) => _http.SendBodyAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="HttpSession.SendResponseBodyAsync(ReadOnlySpan{byte})"/>
    public bool SendResponseBodyAsync(ReadOnlySpan<byte> buffer) => _http.SendBodyAsync(buffer);

    /// <inheritdoc cref="HttpSession.OnReceivedRequestHeader(HttpRequest)"/>
    protected virtual void OnReceivedRequestHeader(HttpRequest request)
    {
    }

    /// <inheritdoc cref="HttpSession.StreamRequestBody(long)"/>
    protected void StreamRequestBody(long maxBodySize = long.MaxValue) => _http.StreamRequestBody(maxBodySize);

    /// <inheritdoc cref="HttpSession.OnReceivedRequestBody(HttpRequest, ReadOnlySpan{byte})"/>
    protected virtual void OnReceivedRequestBody(HttpRequest request, ReadOnlySpan<byte> piece)
    {
    }

    /// <inheritdoc cref="HttpSession.OnReceivedRequest(HttpRequest)"/>
    protected virtual void OnReceivedRequest(HttpRequest request)
    {
    }

    /// <inheritdoc cref="HttpSession.OnReceivedCachedRequest(HttpRequest, byte[])"/>
    protected virtual void OnReceivedCachedRequest(HttpRequest request, byte[] content) => _http.SendPrepared(content);

    /// <inheritdoc cref="HttpSession.OnReceivedRequestError(HttpRequest, string)"/>
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

    Task<bool> IHttpServerSessionHost.FlushAsync(CancellationToken cancellationToken) => FlushAsync(cancellationToken);
}
