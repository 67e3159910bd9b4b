using System;
using System.Buffers;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Core;

namespace NetCoreServer.Http;

/// <summary>
/// The server side of HTTP/1.1 on one connection, with no socket in it: it parses requests as they arrive (several per
/// read when pipelined, one split over many reads), raises the session's hooks, and sends responses in request order.
/// A request that cannot be read is answered with its status (400, 413, 414, 431, 501, 505) and the connection
/// closes; so does a connection whose request asked to close, once its response is out. A client that is idle too long
/// between requests is closed, one that is too slow sending a head (or a body, below the minimum data rate) is
/// answered 408 and closed, and a request nobody answers is closed by the idle clock. Responses go out through an
/// <see cref="HttpOutbox"/>, so none is refused by the send limit; while answers wait past the high watermark, no
/// further pipelined request is read (the engine keeps the bytes and hands them again once they drained).
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
    private readonly HttpOutbox _outbox;
    private readonly Timer _timer;
    private bool _closing;
    private bool _stopped;
    private bool _headStarted;

    // The receive loop is held (answers wait past the high watermark); released once they drained. Under _lock.
    private bool _held;

    // The body under way: when its head ended (Environment.TickCount64) and how many bytes of it came, for the minimum
    // data rate. Written by the receive loop, read by the timer.
    private bool _readingBody;
    private long _bodyStart;
    private long _bodyBytes;

    // BytesSent when the idle clock was armed while an answer is owed: sending meanwhile is not idleness.
    private long _sentAtArm;
    private long _idleSince;

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
        _outbox = new HttpOutbox(session);
        _timer = new Timer(static s => ((HttpServerProtocol)s!).OnTimeout(), this, Timeout.Infinite, Timeout.Infinite);
    }

    private readonly record struct Answer(bool HeadOnly, bool Close);

    /// <summary>Starts the keep-alive clock for the first request (the session is connected).</summary>
    public void Start() => ArmIdle();

    /// <summary>Stops the clocks (the session disconnected).</summary>
    public void Stop()
    {
        lock (_lock)
        {
            _closing = true;
            _stopped = true;
        }
        _timer.Dispose();
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
            if (Volatile.Read(ref _readingBody))
                Interlocked.Add(ref _bodyBytes, consumed);
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
                    if (_reader.CheckHost(_session.Options.RequireHost) is { } hostError)
                    {
                        Refuse(400, hostError);
                        return data.Length;
                    }
                    StartBodyClock();
                    _session.RaiseRequestHeader(_request);
                    if (_reader.ExpectContinue)
                        _outbox.Send(s_continue, default, blocking: false, closeAfter: false);
                    break;
                case HttpReadResult.MessageReady:
                    Volatile.Write(ref _readingBody, false);
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
        // The idle clock runs while the answer is owed: a request nobody answers does not hold the connection forever.
        ArmIdle();
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
        return _outbox.Send(head, body, blocking, answer.Close);
    }

    /// <summary>Sends more body bytes of the response under way (its head declared them), in order with the responses.</summary>
    public bool SendBody(ReadOnlySpan<byte> body, bool blocking) => body.IsEmpty || _outbox.Send(body, default, blocking, closeAfter: false);

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
            if (!_outbox.Send(response.Cache.AsSpan(), Encoding.ASCII.GetBytes(framing), blocking: false, closeAfter: false))
                return false;
            if (!answer.HeadOnly)
            {
                while (true)
                {
                    var read = await body.ReadAsync(buffer.AsMemory(0, StreamChunkSize), cancellationToken).ConfigureAwait(false);
                    if (read == 0)
                        break;
                    var sent = length == null
                        ? _outbox.Send(Encoding.ASCII.GetBytes(read.ToString("x") + "\r\n"), buffer.AsSpan(0, read), blocking: false, closeAfter: false) && _outbox.Send(s_crlf, default, blocking: false, closeAfter: false)
                        : _outbox.Send(buffer.AsSpan(0, read), default, blocking: false, closeAfter: false);
                    if (!sent)
                        return false;
                    if (_session.BytesPending + _outbox.Bytes > StreamHighWater && !await _session.FlushAsync(cancellationToken).ConfigureAwait(false))
                        return false;
                }
                if (length == null && !_outbox.Send(s_lastChunk, default, blocking: false, closeAfter: false))
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
            _outbox.Send(bytes, default, blocking: false, closeAfter: false);
        }
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
            ArmIdle();
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
        Disarm();
        _session.RaiseRequestError(_request, reason);
        var response = new HttpResponse();
        response.SetBegin(status).SetHeader("Connection", "close").SetHeader("Content-Type", "text/plain; charset=UTF-8").SetBody(reason);
        _outbox.Send(response.Cache.AsSpan(), default, blocking: false, closeAfter: true);
    }

    private void Arm(TimeSpan timeout)
    {
        lock (_lock)
        {
            // A request that asked to close is still timed until its answer is out.
            if (_stopped)
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

    /// <summary>The keep-alive clock: between requests, and while an answer is owed (sending meanwhile restarts it).</summary>
    private void ArmIdle()
    {
        Volatile.Write(ref _idleSince, Environment.TickCount64);
        Volatile.Write(ref _sentAtArm, _session.BytesSent);
        Arm(_session.Options.KeepAliveTimeout);
    }

    /// <summary>A head ended: its body, if any, runs on the minimum data rate (or the idle clock when that is off).</summary>
    private void StartBodyClock()
    {
        if (!_reader.IsReadingBody)
        {
            Disarm();
            return;
        }
        Volatile.Write(ref _bodyStart, Environment.TickCount64);
        Interlocked.Exchange(ref _bodyBytes, 0);
        // For a pause while the body runs (see OnTimeout): the client must keep taking answers.
        Volatile.Write(ref _idleSince, Environment.TickCount64);
        Volatile.Write(ref _sentAtArm, _session.BytesSent);
        Volatile.Write(ref _readingBody, true);
        var options = _session.Options;
        Arm(options.MinRequestBodyDataRate > 0 ? options.MinRequestBodyDataRateGracePeriod : options.KeepAliveTimeout);
    }

    private void OnTimeout()
    {
        var options = _session.Options;
        if (Volatile.Read(ref _readingBody) && options.MinRequestBodyDataRate > 0)
        {
            var now = Environment.TickCount64;
            if (!_session.IsWritable)
            {
                // The server itself stopped reading (its answers wait for this client): not the client's slowness,
                // as long as the client takes some of them within the idle timeout.
                var sent = _session.BytesSent;
                if (sent != Volatile.Read(ref _sentAtArm))
                {
                    Volatile.Write(ref _sentAtArm, sent);
                    Volatile.Write(ref _idleSince, now);
                }
                if (now - Volatile.Read(ref _idleSince) < (long)options.KeepAliveTimeout.TotalMilliseconds)
                {
                    Volatile.Write(ref _bodyStart, now);
                    Interlocked.Exchange(ref _bodyBytes, 0);
                    Arm(options.MinRequestBodyDataRateGracePeriod);
                    return;
                }
                _session.Disconnect();
                return;
            }
            // Kestrel's rule: after the grace period, the body's average rate since its head must reach the minimum.
            var elapsed = Environment.TickCount64 - Volatile.Read(ref _bodyStart);
            if (Interlocked.Read(ref _bodyBytes) >= options.MinRequestBodyDataRate * elapsed / 1000)
            {
                Arm(TimeSpan.FromSeconds(1));
                return;
            }
        }
        else if (!Volatile.Read(ref _readingBody) && !Volatile.Read(ref _headStarted))
        {
            // Idle or an answer owed: an answer still going out is no idleness.
            var left = (long)options.KeepAliveTimeout.TotalMilliseconds - (Environment.TickCount64 - Volatile.Read(ref _idleSince));
            if (left > 0)
            {
                // A clock of another phase fired late, after this one was armed: the idle clock has time left.
                Arm(TimeSpan.FromMilliseconds(left));
                return;
            }
            var sent = _session.BytesSent;
            bool owed;
            lock (_lock)
                owed = _awaiting.Count > 0 || _deferred != null;
            if (sent != Volatile.Read(ref _sentAtArm) && (owed || _outbox.IsBusy || _session.BytesPending > 0))
            {
                ArmIdle();
                return;
            }
        }
        bool answer;
        lock (_lock)
        {
            if (_stopped || _upgraded)
                return;
            // Closing already (a request asked to): its answer never came, nothing more is owed to the client.
            answer = !_closing && (_headStarted || _readingBody);
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
