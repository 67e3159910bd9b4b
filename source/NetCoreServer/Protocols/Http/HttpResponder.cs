using System;
using System.Buffers;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http2;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The server side of HTTP on one connection, whatever the transport: <see cref="HttpSession"/> (TCP) and
/// <see cref="HttpsSession"/> (TLS) forward their public members here. Holds the request being read, the response to
/// fill and the protocol that parses and answers. Thread-safety is the protocol's: the send methods may be called from
/// any thread.
/// </summary>
internal sealed class HttpResponder
{
    // The server's, not copied: one reference less per connection.
    private readonly HttpSite _site;
    private readonly HttpRequest _request = new();
    private HttpServerProtocol _protocol = null!;

    // The connection's HTTP/2 protocol once the client chose it (the preface), else null: the answers then go there.
    private Http2ServerConnection? _http2;

    public HttpResponder(HttpSite site) => _site = site;

    public FileCache Cache => _site.Cache;

    public HttpOptions Options => _site.Options;

    /// <summary>The request being received: HTTP/1.1's one, or over HTTP/2 the request whose hooks ran last.</summary>
    public HttpRequest Request => Volatile.Read(ref _http2)?.Dispatcher.CurrentRequest ?? _request;

    public HttpResponse Response { get; } = new();

    /// <summary>Makes the protocol for the connection's slot; called once, from the session's constructor, once this responder is the session's.</summary>
    public IStreamProtocol Install(IHttpServerSessionHost session)
        => _protocol = new HttpServerProtocol(session, _request, () => StartHttp2(session));

    /// <summary>The client sent the HTTP/2 preface: the HTTP/2 protocol replaces HTTP/1.1 in the slot and sends its SETTINGS.</summary>
    private Http2ServerConnection StartHttp2(IHttpServerSessionHost session)
    {
        var http2 = new Http2ServerConnection(session, new HttpOutbox(session));
        Volatile.Write(ref _http2, http2);
        session.SwitchProtocol(http2);
        http2.Start();
        return http2;
    }

    // Where answers go: HTTP/1.1's writer, or HTTP/2's once chosen.
    private IHttpAnswerTarget Answers => (IHttpAnswerTarget?)Volatile.Read(ref _http2)?.Answers ?? _protocol.Answers;

    public long SendResponse(HttpResponse response) => Answers.SendResponse(0, response, blocking: true) ? response.Cache.Size : 0;

    public bool SendResponseAsync(HttpResponse response) => Answers.SendResponse(0, response, blocking: false);

    public Task<bool> SendResponseStreamAsync(HttpResponse response, Stream body, CancellationToken cancellationToken)
        => Answers.SendStreamAsync(0, response, body, cancellationToken);

    public long SendBody(ReadOnlySpan<byte> body) => Answers.SendBody(0, body, blocking: true) ? body.Length : 0;

    public long SendBody(ReadOnlySpan<char> body) => SendBodyText(body, blocking: true);

    public bool SendBodyAsync(ReadOnlySpan<byte> body) => Answers.SendBody(0, body, blocking: false);

    public bool SendBodyAsync(ReadOnlySpan<char> body) => SendBodyText(body, blocking: false) > 0 || body.IsEmpty;

    public void SendPrepared(byte[] content)
    {
        if (Volatile.Read(ref _http2) is { } http2)
            http2.Answers.SendPrepared(content);
        else
            _protocol.Answers.SendPrepared(content);
    }

    public void StreamRequestBody(long limit)
    {
        if (Volatile.Read(ref _http2) is { } http2)
            http2.Dispatcher.StreamRequestBody(limit);
        else
            _protocol.StreamRequestBody(limit);
    }

    public byte[]? FindCached(HttpRequest request, out StaticStream? streamed) => StaticContent.Answer(Cache, request, out streamed);

    /// <summary>The session connected: the keep-alive clock starts.</summary>
    public void Start() => _protocol.Start();

    /// <summary>The session is released: clocks stop, and the buffers large messages grew are counted as garbage.</summary>
    public void Release()
    {
        _protocol.Stop();
        Volatile.Read(ref _http2)?.Stop();
        // Counted so that the collection after a burst runs when many such sessions end (a quiet server allocates nothing).
        EngineBuffers.Released(_request.Cache.Capacity + Response.Cache.Capacity);
    }

    /// <summary>Body text as UTF-8, in order with the responses (behind one still going out in pieces); bytes sent, 0 when not.</summary>
    private long SendBodyText(ReadOnlySpan<char> text, bool blocking)
    {
        if (text.IsEmpty)
            return 0;
        var buffer = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetMaxByteCount(text.Length));
        try
        {
            // The outbox copies what it keeps, so the buffer goes back at once.
            var length = Encoding.UTF8.GetBytes(text, buffer);
            return Answers.SendBody(0, buffer.AsSpan(0, length), blocking) ? length : 0;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }
}
