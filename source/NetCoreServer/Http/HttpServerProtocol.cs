using System;
using System.Collections.Generic;
using System.Text;
using System.Threading;
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

    /// <summary>Queues a message of one or two pieces as one unit; false when refused.</summary>
    bool SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking);

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
                        return data.Length;
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
        var cache = response.Cache;
        var whole = new ReadOnlySpan<byte>(cache.Data, (int)cache.Offset, (int)(cache.Size - cache.Offset));
        var bodyStart = Math.Clamp(response.Store.BodyStart - (int)cache.Offset, 0, whole.Length);
        var sent = answer.HeadOnly
            ? _session.SendMessage(whole[..bodyStart], default, blocking)
            : _session.SendMessage(whole[..bodyStart], whole[bodyStart..], blocking);
        if (answer.Close)
            _session.Disconnect();
        return sent;
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
