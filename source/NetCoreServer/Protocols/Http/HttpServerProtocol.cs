using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The server side of HTTP/1.1 on one connection, with no socket in it: it drives the parser over what arrives (several
/// requests per read when pipelined, one split over many reads) and raises the session's hooks. One answer is owed at a
/// time (<see cref="HttpOwedAnswer"/>): the next pipelined request is read only once the current one's response is
/// completely queued, whoever sends it and whenever, so every response answers its own request. A request that cannot
/// be read is answered with its status (400, 413, 414, 431, 501, 505) and the connection closes; so does a connection
/// whose request asked to close, once its response is out. The clocks (idle, head, body rate, response) are
/// <see cref="HttpRequestTimeouts"/>; responses go out through an <see cref="HttpOutbox"/>, so none is refused by the
/// send limit; a streamed body is <see cref="HttpStreamedResponse"/>. While responses wait past the high watermark, no
/// further pipelined request is read either (the engine keeps the bytes and hands them again once released).
/// </summary>
/// <remarks>
/// Lock: <c>_lock</c> guards the connection's state flags and the hold; nothing is sent or raised under it.
/// </remarks>
internal sealed class HttpServerProtocol : IStreamProtocol, IHttpBodySink
{
    private readonly IHttpServerSessionHost _session;
    private readonly HttpRequest _request;
    private readonly HttpRequestReader _reader;
    private readonly HttpOutbox _outbox;
    private readonly HttpRequestTimeouts _timeouts;
    private readonly HttpOwedAnswer _answer = new();
    private readonly object _lock = new();

    private bool _closing;
    private bool _stopped;

    // The receive loop is held (an answer is owed, or responses wait past the high watermark); released once clear.
    private bool _held;

    // The connection switched protocols: bytes after the upgrade request belong to the new protocol, not to HTTP.
    private bool _upgraded;

    // Makes HTTP/2 the connection's protocol (the client preface arrived) and returns it; null where HTTP/2 is not offered.
    private readonly Func<IStreamProtocol>? _http2;

    // Receive thread only: nothing was read yet, so the first bytes may still be HTTP/2's preface (h2c, prior knowledge).
    private bool _atStart = true;

    // Receive thread only: the last request was handed over, and the next head has not arrived.
    private bool _betweenRequests = true;

    // Receive thread only: the header hook is running, and the body limit it chose by streaming the body (-1: kept whole).
    private bool _inHeaderHook;
    private long _streamLimit = -1;

    public HttpServerProtocol(IHttpServerSessionHost session, HttpRequest request, Func<IStreamProtocol>? http2 = null)
    {
        _http2 = http2;
        _session = session;
        _request = request;
        _reader = new HttpRequestReader(request, session.Options.Limits) { DeferBodyLimit = true };
        _outbox = new HttpOutbox(session);
        _timeouts = new HttpRequestTimeouts(session, this);
        Answers = new HttpAnswerWriter(session, _answer, _outbox, _timeouts, TryRelease);
    }

    /// <summary>Where every response of the connection goes: the session's send methods and each request's handle.</summary>
    public HttpAnswerWriter Answers { get; }

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
        _answer.Close();
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
        if (_atStart)
        {
            // No HTTP/1.1 method starts with "PRI ": an HTTP/1.1 client is served exactly as before. Over TLS, ALPN's
            // "h2" chose HTTP/2 before any byte (its reader then checks the preface).
            var preface = _http2 == null ? false
                : _session.NegotiatedHttp2 ? true
                : _session.Options.Http2Enabled ? Http2Preface.Matches(data) : false;
            if (preface == null)
                return 0;
            if (preface == true)
                return SwitchToHttp2(data);
            _atStart = false;
        }
        var total = 0;
        while (true)
        {
            // A draining server reads no further request: the connection closes after the answer owed.
            if (_betweenRequests && _answer.Draining)
                return data.Length;
            // The next request waits until the last one's response is completely queued.
            if (_betweenRequests && total < data.Length && MustWait())
            {
                Hold();
                return total;
            }
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
                    _betweenRequests = false;
                    Answers.RequestRead(_request.Method);
                    _request.ReceivedBy(Answers, _answer.Open(_request.Method == "HEAD", !_reader.KeepAlive));
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
                        Answers.SendContinue();
                    break;
                case HttpReadResult.MessageReady:
                    _timeouts.EndBody();
                    if (!Dispatch())
                        return _upgraded ? total : data.Length;
                    // The request stays as it is until more bytes arrive (a response may be sent later, from another thread).
                    break;
                default:
                    Refuse(_reader.ErrorStatus, _reader.ErrorReason);
                    return data.Length;
            }
        }
    }

    /// <summary>The client preface arrived: HTTP/2 takes the slot and reads these bytes; HTTP/1.1 is over here.</summary>
    private int SwitchToHttp2(ReadOnlySpan<byte> data)
    {
        lock (_lock)
        {
            _closing = true;
            _upgraded = true;
        }
        _timeouts.Cancel();
        _answer.Close();
        return _http2!().Received(data);
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

    /// <summary>The next request must wait: the last one's answer is owed or going out, or responses wait past the high watermark.</summary>
    private bool MustWait() => _answer.Blocks || _outbox.IsBusy || !_session.IsWritable;

    /// <summary>
    /// Stops reading (from inside <see cref="Received"/>) until <see cref="TryRelease"/>: the engine keeps what is left
    /// and hands it again. The engine's hold is in place before the flag that lets another thread release it.
    /// </summary>
    private void Hold()
    {
        _session.HoldReceiving();
        lock (_lock)
        {
            if (MustWait())
            {
                _held = true;
                return;
            }
        }
        // It cleared meanwhile, before the flag was up: nobody else will release.
        _session.ReleaseReceiving();
    }

    /// <summary>Ends a hold once the answer is done and the responses drained (any thread).</summary>
    private void TryRelease()
    {
        lock (_lock)
        {
            if (!_held || MustWait())
                return;
            _held = false;
        }
        _session.ReleaseReceiving();
    }

    /// <summary>Bytes went out: queue more of what waits, and read again once the answers drained.</summary>
    public void Sent()
    {
        _outbox.Pump();
        TryRelease();
    }

    /// <summary>Raises the request hooks; false once the connection is closing (no further request is read).</summary>
    private bool Dispatch()
    {
        var keepAlive = _reader.KeepAlive;
        _betweenRequests = true;
        var awaiting = _answer.Dispatched();
        lock (_lock)
        {
            if (!keepAlive)
                _closing = true;
            _timeouts.EndHeadLocked();
        }
        switch (_session.Upgrade(_request))
        {
            case HttpUpgrade.Switched:
                // The 101 went out through SendResponse: HTTP is over on this connection.
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
        // Before the hooks, which may answer at once: a request nobody answers gets a 503, never a later request's response.
        if (awaiting)
            _timeouts.StartResponse();
        else if (!_answer.Blocks)
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
        var file = part.Open();
        if (file == null)
            return false;
        _ = SendFileAsync(part, file);
        return true;
    }

    private async Task SendFileAsync(StaticStream part, FileStream file)
    {
        try
        {
            await Answers.SendStreamAsync(0, part.Head, file, CancellationToken.None, part.Length).ConfigureAwait(false);
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

    /// <summary>Answers a request that cannot be read with its status and closes: the framing of the stream is lost.</summary>
    private void Refuse(int status, string reason)
    {
        lock (_lock)
            _closing = true;
        _timeouts.Cancel();
        _session.RaiseRequestError(_request, reason);
        Answers.SendError(status, reason);
    }

    /// <summary>
    /// The server drains (<c>StopAsync</c>): a request in progress (its head read, its answer owed or going out) is
    /// answered with <c>Connection: close</c> and the connection closes after it; no further request is read. False when
    /// the connection is idle between requests: it is then closed at once (a head only partly received is cut: nothing of
    /// its answer was sent, so the client may retry it, as after any keep-alive close).
    /// </summary>
    public bool BeginDrain()
    {
        lock (_lock)
        {
            if (_stopped || _upgraded)
                return false;
        }
        return _answer.Drain();
    }

    /// <summary>An answer is owed or still going out: the client is not idle while it takes one.</summary>
    internal bool IsAnswerOwed => _answer.Blocks || _outbox.IsBusy;

    /// <summary>A request read whole got no response within the response timeout: 503, then close.</summary>
    internal void ResponseTimedOut()
    {
        lock (_lock)
        {
            if (_stopped || _upgraded)
                return;
        }
        if (!_answer.TryClaimUnanswered())
        {
            // Its response began meanwhile: from now on it is timed like any response going out.
            _timeouts.StartIdle();
            return;
        }
        lock (_lock)
            _closing = true;
        Answers.SendError(503, "No response was made for the request in time.", claimed: true);
    }

    /// <summary>A clock ran out: a request under way gets a 408 and the connection closes; an idle one just closes.</summary>
    internal void TimedOut()
    {
        bool answer;
        lock (_lock)
        {
            if (_stopped || _upgraded)
                return;
            answer = !_closing && (_timeouts.HeadStarted || _timeouts.ReadingBody);
            _closing = true;
        }
        if (answer)
        {
            Answers.SendError(408, "");
            return;
        }
        _answer.Close();
        _session.Disconnect();
    }
}
