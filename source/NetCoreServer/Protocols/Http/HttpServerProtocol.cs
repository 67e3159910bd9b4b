using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The server side of HTTP/1.1 on one connection, with no socket in it: it drives the parser over what arrives (several
/// requests per read when pipelined, one split over many reads), raises the session's hooks, and answers in request
/// order. A request that cannot be read is answered with its status (400, 413, 414, 431, 501, 505) and the connection
/// closes; so does a connection whose request asked to close, once its response is out. The clocks (idle, head, body
/// rate) are <see cref="HttpRequestTimeouts"/>; responses go out through an <see cref="HttpOutbox"/>, so none is
/// refused by the send limit; a streamed body is <see cref="HttpStreamedResponse"/>. While answers wait past the high
/// watermark, no further pipelined request is read (the engine keeps the bytes and hands them again once they drained).
/// </summary>
/// <remarks>
/// Lock: <c>_lock</c> guards the answers owed and the connection's state flags; nothing is sent or raised under it.
/// </remarks>
internal sealed class HttpServerProtocol : IStreamProtocol, IHttpBodySink
{
    private static readonly byte[] s_continue = Encoding.ASCII.GetBytes("HTTP/1.1 100 Continue\r\n\r\n");

    private readonly IHttpServerSessionHost _session;
    private readonly HttpRequest _request;
    private readonly HttpRequestReader _reader;
    private readonly HttpOutbox _outbox;
    private readonly HttpRequestTimeouts _timeouts;
    private readonly object _lock = new();

    // One entry per request read and not answered yet, in order: how to answer it.
    private readonly Queue<Answer> _awaiting = new();
    private bool _closing;
    private bool _stopped;

    // The receive loop is held (answers wait past the high watermark); released once they drained.
    private bool _held;

    // The connection switched protocols: bytes after the upgrade request belong to the new protocol, not to HTTP.
    private bool _upgraded;

    // Made on the first streamed response.
    private HttpStreamedResponse? _streamed;

    // Receive thread only: the header hook is running, and the body limit it chose by streaming the body (-1: kept whole).
    private bool _inHeaderHook;
    private long _streamLimit = -1;

    public HttpServerProtocol(IHttpServerSessionHost session, HttpRequest request)
    {
        _session = session;
        _request = request;
        _reader = new HttpRequestReader(request, session.Options.Limits) { DeferBodyLimit = true };
        _outbox = new HttpOutbox(session);
        _timeouts = new HttpRequestTimeouts(session, this);
    }

    private readonly record struct Answer(bool HeadOnly, bool Close);

    /// <summary>Starts the keep-alive clock for the first request (the session is connected).</summary>
    public void Start() => _timeouts.StartIdle();

    /// <summary>Stops the clocks (the session disconnected).</summary>
    public void Stop()
    {
        lock (_lock)
        {
            _closing = true;
            _stopped = true;
        }
        _timeouts.Close();
        _outbox.Drop();
    }

    public int Received(ReadOnlySpan<byte> data)
    {
        if (Volatile.Read(ref _closing))
            return data.Length;
        // Held: the engine keeps the rest and hands it again once the answers drained.
        if (Volatile.Read(ref _held))
            return 0;
        var total = 0;
        while (true)
        {
            var result = _reader.Read(data[total..], out var consumed);
            total += consumed;
            _timeouts.CountBody(consumed);
            switch (result)
            {
                case HttpReadResult.NeedMoreData:
                    if (!_reader.IsReadingBody && total < data.Length && !_timeouts.HeadStarted)
                        _timeouts.StartHead();
                    return total;
                case HttpReadResult.HeaderReady:
                    if (_reader.CheckHost(_session.Options.RequireHost) is { } hostError)
                    {
                        Refuse(400, hostError);
                        return data.Length;
                    }
                    _timeouts.StartBody(_reader.IsReadingBody);
                    RaiseRequestHeader();
                    if (!_reader.AcceptBody(_streamLimit >= 0 ? this : null, _streamLimit))
                    {
                        Refuse(_reader.ErrorStatus, _reader.ErrorReason);
                        return data.Length;
                    }
                    if (_reader.ExpectContinue)
                        _outbox.Send(s_continue, default, blocking: false, closeAfter: false);
                    break;
                case HttpReadResult.MessageReady:
                    _timeouts.EndBody();
                    if (!Dispatch())
                        return _upgraded ? total : data.Length;
                    // The request stays as it is until more bytes arrive (a response may be sent later, from another thread).
                    if (total == data.Length)
                        return total;
                    if (Hold())
                        return total;
                    break;
                default:
                    Refuse(_reader.ErrorStatus, _reader.ErrorReason);
                    return data.Length;
            }
        }
    }

    private void RaiseRequestHeader()
    {
        _streamLimit = -1;
        _inHeaderHook = true;
        try
        {
            _session.RaiseRequestHeader(_request);
        }
        finally
        {
            _inHeaderHook = false;
        }
    }

    /// <summary>
    /// From the header hook: the body of this request goes to the body hook piece by piece as it arrives, up to
    /// <paramref name="limit"/> bytes, instead of into the request.
    /// </summary>
    public void StreamRequestBody(long limit)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(limit);
        if (!_inHeaderHook)
            throw new InvalidOperationException("StreamRequestBody is called from OnReceivedRequestHeader, for the request whose head just arrived.");
        _streamLimit = limit;
    }

    void IHttpBodySink.BodyReceived(ReadOnlySpan<byte> piece) => _session.RaiseRequestBody(_request, piece);

    /// <summary>
    /// Stops reading pipelined requests while answers wait past the high watermark (or behind a large one), so that a
    /// client that does not read cannot make the server hold answer after answer; true when held.
    /// </summary>
    private bool Hold()
    {
        if (_session.IsWritable && !_outbox.IsBusy)
            return false;
        lock (_lock)
            _held = true;
        _session.HoldReceiving();
        // The answers may have drained before the hold was in place: then no later batch would release it.
        Release();
        return true;
    }

    /// <summary>Ends a hold once the answers drained.</summary>
    private void Release()
    {
        lock (_lock)
        {
            if (!_held || _outbox.IsBusy || !_session.IsWritable)
                return;
            _held = false;
        }
        _session.ReleaseReceiving();
    }

    /// <summary>Bytes went out: queue more of what waits, and read again once the answers drained.</summary>
    public void Sent()
    {
        _outbox.Pump();
        Release();
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
            _timeouts.EndHeadLocked();
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
                _timeouts.Cancel();
                return false;
            case HttpUpgrade.Refused:
                lock (_lock)
                    _closing = true;
                _timeouts.Cancel();
                return false;
        }
        // The idle clock runs while the answer is owed: a request nobody answers does not hold the connection forever.
        _timeouts.StartIdle();
        StaticStream? streamed = null;
        var cached = _request.Method is "GET" or "HEAD" ? _session.FindCached(_request, out streamed) : null;
        if (cached != null)
            _session.RaiseCachedRequest(_request, cached);
        else if (streamed == null || !SendFile(streamed))
            _session.RaiseRequest(_request);
        return keepAlive;
    }

    /// <summary>Answers with a part of a file too large to cache, read from the disk as it goes out; false when it cannot be opened.</summary>
    private bool SendFile(StaticStream part)
    {
        FileStream file;
        try
        {
            file = new FileStream(part.File.FullPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0, FileOptions.Asynchronous | FileOptions.SequentialScan);
            file.Position = part.Offset;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
        _ = SendFileAsync(part, file);
        return true;
    }

    private async Task SendFileAsync(StaticStream part, FileStream file)
    {
        try
        {
            await SendStreamAsync(part.Head, file, CancellationToken.None, part.Length).ConfigureAwait(false);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            // The file failed while read: the response was cut short and the connection closed.
        }
        finally
        {
            await file.DisposeAsync().ConfigureAwait(false);
        }
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
        if (Volatile.Read(ref _streamed) is { } streamed && streamed.TryDefer(head, body, answer.Close))
            return true;
        return _outbox.Send(head, body, blocking, answer.Close);
    }

    /// <summary>Sends more body bytes of the response under way (its head declared them), in order with the responses.</summary>
    public bool SendBody(ReadOnlySpan<byte> body, bool blocking) => body.IsEmpty || _outbox.Send(body, default, blocking, closeAfter: false);

    /// <summary>
    /// Answers the oldest request with a response whose body is read from <paramref name="body"/> as it goes out (see
    /// <see cref="HttpStreamedResponse"/>); responses to later requests sent meanwhile wait and follow it in order.
    /// </summary>
    public Task<bool> SendStreamAsync(HttpResponse response, Stream body, CancellationToken cancellationToken, long? bodyLength = null)
    {
        if (response.Store.BodyStart != 0)
            return Task.FromException<bool>(new InvalidOperationException("The response already has a body; set only its start line and headers (SetBegin, SetHeader) before streaming a body."));
        var answer = NextAnswer();
        var streamed = Volatile.Read(ref _streamed);
        if (streamed == null)
        {
            var made = new HttpStreamedResponse(_session, _outbox);
            streamed = Interlocked.CompareExchange(ref _streamed, made, null) ?? made;
        }
        return streamed.SendAsync(response, answer.HeadOnly, answer.Close, body, cancellationToken, bodyLength);
    }

    /// <summary>Sends prepared response bytes (cached static content) to the oldest request not answered yet.</summary>
    public bool SendPrepared(byte[] content)
    {
        var answer = NextAnswer();
        var length = answer.HeadOnly ? HeadLength(content) : content.Length;
        return _outbox.SendShared(content, length, answer.Close);
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
            _timeouts.StartIdle();
        return answer;
    }

    private static int HeadLength(byte[] message)
    {
        var end = message.AsSpan().IndexOf("\r\n\r\n"u8);
        return end < 0 ? message.Length : end + 4;
    }

    /// <summary>Answers a request that cannot be read with its status and closes: the framing of the stream is lost.</summary>
    private void Refuse(int status, string reason)
    {
        lock (_lock)
            _closing = true;
        _timeouts.Cancel();
        _session.RaiseRequestError(_request, reason);
        var response = new HttpResponse();
        response.SetBegin(status).SetHeader("Connection", "close").SetHeader("Content-Type", "text/plain; charset=UTF-8").SetBody(reason);
        _outbox.Send(response.Cache.AsSpan(), default, blocking: false, closeAfter: true);
    }

    /// <summary>An answer is owed or still going out: the client is not idle while it takes one.</summary>
    internal bool IsAnswerOwed
    {
        get
        {
            lock (_lock)
            {
                if (_awaiting.Count > 0)
                    return true;
            }
            return Volatile.Read(ref _streamed)?.IsStreaming == true || _outbox.IsBusy;
        }
    }

    /// <summary>A clock ran out: a request under way gets a 408 and the connection closes; an idle one just closes.</summary>
    internal void TimedOut()
    {
        bool answer;
        lock (_lock)
        {
            if (_stopped || _upgraded)
                return;
            // Closing already (a request asked to): its answer never came, nothing more is owed to the client.
            answer = !_closing && (_timeouts.HeadStarted || _timeouts.ReadingBody);
            _closing = true;
        }
        if (answer)
        {
            var response = new HttpResponse();
            response.SetBegin(408).SetHeader("Connection", "close").SetBody();
            _outbox.Send(response.Cache.AsSpan(), default, blocking: false, closeAfter: true);
            return;
        }
        _session.Disconnect();
    }
}
