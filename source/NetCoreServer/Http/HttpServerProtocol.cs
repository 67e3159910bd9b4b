using System;
using System.Buffers;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Core;

namespace NetCoreServer.Http;

/// <summary>What the server side of HTTP needs from its session: <see cref="HttpSession"/> (TCP) or <see cref="HttpsSession"/> (TLS).</summary>
internal interface IHttpServerSessionHost
{
    HttpOptions Options { get; }

    /// <summary>What to send for a GET or HEAD of static content (200, 304, or 400 for a path leaving the served directory), or null.</summary>
    byte[]? FindCached(HttpRequest request);

    void RaiseRequestHeader(HttpRequest request);

    void RaiseRequest(HttpRequest request);

    void RaiseCachedRequest(HttpRequest request, byte[] content);

    void RaiseRequestError(HttpRequest request, string error);

    /// <summary>Offers a complete request to a protocol upgrade (WebSocket) before the request hooks; see <see cref="HttpUpgrade"/>.</summary>
    HttpUpgrade Upgrade(HttpRequest request);

    /// <summary>Queues a message of one or two pieces as one unit; false when refused.</summary>
    bool SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking);

    /// <summary>Bytes queued and not yet handed to the socket.</summary>
    long BytesPending { get; }

    /// <summary>Completes when everything queued so far is handed to the socket (false if the connection ended first).</summary>
    Task<bool> FlushAsync(CancellationToken cancellationToken);

    void Disconnect();
}

/// <summary>
/// The server side of HTTP/1.1 on one connection, with no socket in it: it parses requests as they arrive (several per
/// read when pipelined, one split over many reads), raises the session's hooks, and sends responses in request order.
/// A request that cannot be read is answered with its status (400, 413, 414, 431, 501, 505) and the connection
/// closes; so does a connection whose request asked to close, once its response is out. A client that is idle too long
/// between requests is closed, one that is too slow sending a head is answered 408 and closed.
/// </summary>
internal sealed class HttpServerProtocol : IStreamProtocol
{
    private static readonly byte[] s_continue = Encoding.ASCII.GetBytes("HTTP/1.1 100 Continue\r\n\r\n");

    private readonly IHttpServerSessionHost _session;
    private readonly HttpRequest _request;
    private readonly HttpRequestReader _reader;
    private readonly object _lock = new();

    // One entry per request read and not answered yet, in order: how to answer it.
    private readonly Queue<Answer> _awaiting = new();
    private readonly Timer _timer;
    private bool _closing;
    private bool _headStarted;

    // The connection switched protocols: bytes after the upgrade request belong to the new protocol, not to HTTP.
    private bool _upgraded;

    // While a streamed body goes out, later responses wait here, in order, so that nothing is sent in its middle.
    private List<byte[]>? _deferred;
    private long _deferredBytes;

    public HttpServerProtocol(IHttpServerSessionHost session, HttpRequest request)
    {
        _session = session;
        _request = request;
        _reader = new HttpRequestReader(request, session.Options.Limits);
        _timer = new Timer(static s => ((HttpServerProtocol)s!).OnTimeout(), this, Timeout.Infinite, Timeout.Infinite);
    }

    private readonly record struct Answer(bool HeadOnly, bool Close);

    /// <summary>Starts the keep-alive clock for the first request (the session is connected).</summary>
    public void Start() => Arm(_session.Options.KeepAliveTimeout);

    /// <summary>Stops the clocks (the session disconnected).</summary>
    public void Stop()
    {
        lock (_lock)
            _closing = true;
        _timer.Dispose();
    }

    public int Received(ReadOnlySpan<byte> data)
    {
        if (Volatile.Read(ref _closing))
            return data.Length;
        var total = 0;
        while (true)
        {
            var result = _reader.Read(data[total..], out var consumed);
            total += consumed;
            switch (result)
            {
                case HttpReadResult.NeedMoreData:
                    if (!_reader.IsReadingBody && total < data.Length && !_headStarted)
                    {
                        // The first bytes of a head: from now on the head timeout applies, not the idle one.
                        _headStarted = true;
                        Arm(_session.Options.HeaderTimeout);
                    }
                    return total;
                case HttpReadResult.HeaderReady:
                    Disarm();
                    _session.RaiseRequestHeader(_request);
                    if (_reader.ExpectContinue)
                        _session.SendMessage(s_continue, default, blocking: false);
                    break;
                case HttpReadResult.MessageReady:
                    if (!Dispatch())
                        return _upgraded ? total : data.Length;
                    // The request stays as it is until more bytes arrive (a response may be sent later, from another thread).
                    if (total == data.Length)
                        return total;
                    break;
                default:
                    Refuse(_reader.ErrorStatus, _reader.ErrorReason);
                    return data.Length;
            }
        }
    }

    /// <summary>Raises the request hooks; false once the connection is closing (no further request is read).</summary>
    private bool Dispatch()
    {
        var keepAlive = _reader.KeepAlive;
        var headOnly = _request.Method == "HEAD";
        lock (_lock)
        {
            _awaiting.Enqueue(new Answer(headOnly, !keepAlive));
            if (!keepAlive)
                _closing = true;
            _headStarted = false;
        }
        switch (_session.Upgrade(_request))
        {
            case HttpUpgrade.Switched:
                // The 101 went out through SendResponse, which restarted the idle clock: HTTP is over on this connection.
                lock (_lock)
                {
                    _closing = true;
                    _upgraded = true;
                }
                Disarm();
                return false;
            case HttpUpgrade.Refused:
                lock (_lock)
                    _closing = true;
                Disarm();
                return false;
        }
        var cached = _request.Method is "GET" or "HEAD" ? _session.FindCached(_request) : null;
        if (cached != null)
            _session.RaiseCachedRequest(_request, cached);
        else
            _session.RaiseRequest(_request);
        return keepAlive;
    }

    /// <summary>
    /// Sends a response to the oldest request not answered yet: the head alone for a HEAD request; then closes the
    /// connection if that request asked for it.
    /// </summary>
    public bool SendResponse(HttpResponse response, bool blocking)
    {
        var answer = NextAnswer();
        response.Store.Split(out var head, out var body);
        if (answer.HeadOnly)
            body = default;
        if (Defer(head, body, answer.Close))
            return true;
        var sent = _session.SendMessage(head, body, blocking);
        if (answer.Close)
            _session.Disconnect();
        return sent;
    }

    /// <summary>The most bytes a streamed body keeps queued before it waits for the socket: the backpressure on a producer.</summary>
    internal const long StreamHighWater = 1024 * 1024;

    private const int StreamChunkSize = 64 * 1024;

    /// <summary>The most bytes of later responses kept while a body streams (pipelined requests answered meanwhile).</summary>
    private const long MaxDeferredBytes = 16 * 1024 * 1024;

    private static readonly byte[] s_crlf = "\r\n"u8.ToArray();
    private static readonly byte[] s_lastChunk = "0\r\n\r\n"u8.ToArray();

    /// <summary>
    /// Answers the oldest request with a response whose body is read from <paramref name="body"/> as it goes out, never
    /// whole in memory: with Content-Length when the stream knows its length, chunked otherwise. The producer is read
    /// only while less than <see cref="StreamHighWater"/> waits in the send queue. Responses to later requests sent
    /// meanwhile wait and follow it in order.
    /// </summary>
    public async Task<bool> SendStreamAsync(HttpResponse response, Stream body, CancellationToken cancellationToken)
    {
        if (response.Store.BodyStart != 0)
            throw new InvalidOperationException("The response already has a body; set only its start line and headers (SetBegin, SetHeader) before streaming a body.");
        var answer = NextAnswer();
        long? length = body.CanSeek ? body.Length - body.Position : null;
        var framing = length is { } known ? $"Content-Length: {known}\r\n\r\n" : "Transfer-Encoding: chunked\r\n\r\n";
        lock (_lock)
            _deferred ??= new List<byte[]>();
        var buffer = ArrayPool<byte>.Shared.Rent(StreamChunkSize);
        var complete = false;
        try
        {
            if (!_session.SendMessage(response.Cache.AsSpan(), Encoding.ASCII.GetBytes(framing), blocking: false))
                return false;
            if (!answer.HeadOnly)
            {
                while (true)
                {
                    var read = await body.ReadAsync(buffer.AsMemory(0, StreamChunkSize), cancellationToken).ConfigureAwait(false);
                    if (read == 0)
                        break;
                    var sent = length == null
                        ? _session.SendMessage(Encoding.ASCII.GetBytes(read.ToString("x") + "\r\n"), buffer.AsSpan(0, read), blocking: false) && _session.SendMessage(s_crlf, default, blocking: false)
                        : _session.SendMessage(buffer.AsSpan(0, read), default, blocking: false);
                    if (!sent)
                        return false;
                    if (_session.BytesPending > StreamHighWater && !await _session.FlushAsync(cancellationToken).ConfigureAwait(false))
                        return false;
                }
                if (length == null && !_session.SendMessage(s_lastChunk, default, blocking: false))
                    return false;
            }
            complete = true;
            return true;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
            // A body cut short leaves the client waiting for bytes that will not come: only closing tells it.
            EndStream(closeAfter: answer.Close || !complete);
        }
    }

    /// <summary>Keeps a response for after the streamed body under way; false when nothing is streaming.</summary>
    private bool Defer(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool close)
    {
        lock (_lock)
        {
            if (_deferred == null)
                return false;
            if (_deferredBytes + head.Length + body.Length > MaxDeferredBytes)
            {
                // A client pipelining past the bound while a body streams: the stream finishes, then the connection closes.
                _deferred.Add(Array.Empty<byte>());
                return true;
            }
            var bytes = new byte[head.Length + body.Length];
            head.CopyTo(bytes);
            body.CopyTo(bytes.AsSpan(head.Length));
            _deferred.Add(bytes);
            if (close)
                _deferred.Add(Array.Empty<byte>());
            _deferredBytes += bytes.Length;
            return true;
        }
    }

    /// <summary>Sends what waited behind the stream, in order; an empty entry marks a response after which to close.</summary>
    private void EndStream(bool closeAfter)
    {
        List<byte[]> waiting;
        lock (_lock)
        {
            waiting = _deferred ?? new List<byte[]>();
            _deferred = null;
            _deferredBytes = 0;
        }
        if (closeAfter)
        {
            _session.Disconnect();
            return;
        }
        foreach (var bytes in waiting)
        {
            if (bytes.Length == 0)
            {
                _session.Disconnect();
                return;
            }
            _session.SendMessage(bytes, default, blocking: false);
        }
    }

    /// <summary>Sends prepared response bytes (cached static content) to the oldest request not answered yet.</summary>
    public bool SendPrepared(ReadOnlySpan<byte> content)
    {
        var answer = NextAnswer();
        var head = answer.HeadOnly ? content[..HeadLength(content)] : content;
        var sent = _session.SendMessage(head, default, blocking: false);
        if (answer.Close)
            _session.Disconnect();
        return sent;
    }

    /// <summary>The oldest request not answered yet; when none is left, the idle clock starts again.</summary>
    private Answer NextAnswer()
    {
        Answer answer;
        bool idle;
        lock (_lock)
        {
            answer = _awaiting.Count > 0 ? _awaiting.Dequeue() : default;
            idle = _awaiting.Count == 0 && !_closing;
        }
        if (idle)
            Arm(_session.Options.KeepAliveTimeout);
        return answer;
    }

    private static int HeadLength(ReadOnlySpan<byte> message)
    {
        var end = message.IndexOf("\r\n\r\n"u8);
        return end < 0 ? message.Length : end + 4;
    }

    /// <summary>Answers a request that cannot be read with its status and closes: the framing of the stream is lost.</summary>
    private void Refuse(int status, string reason)
    {
        lock (_lock)
            _closing = true;
        Disarm();
        _session.RaiseRequestError(_request, reason);
        var response = new HttpResponse();
        response.SetBegin(status).SetHeader("Connection", "close").SetHeader("Content-Type", "text/plain; charset=UTF-8").SetBody(reason);
        var whole = response.Cache.AsSpan();
        _session.SendMessage(whole, default, blocking: false);
        _session.Disconnect();
    }

    private void Arm(TimeSpan timeout)
    {
        lock (_lock)
        {
            if (_closing)
                return;
            try
            {
                _timer.Change(timeout, Timeout.InfiniteTimeSpan);
            }
            catch (ObjectDisposedException)
            {
                // Stopped meanwhile.
            }
        }
    }

    private void Disarm()
    {
        lock (_lock)
        {
            try
            {
                _timer.Change(Timeout.Infinite, Timeout.Infinite);
            }
            catch (ObjectDisposedException)
            {
                // Stopped meanwhile.
            }
        }
    }

    private void OnTimeout()
    {
        bool partialHead;
        lock (_lock)
        {
            if (_closing)
                return;
            _closing = true;
            partialHead = _headStarted;
        }
        if (partialHead)
        {
            var response = new HttpResponse();
            response.SetBegin(408).SetHeader("Connection", "close").SetBody();
            _session.SendMessage(response.Cache.AsSpan(), default, blocking: false);
        }
        _session.Disconnect();
    }
}
