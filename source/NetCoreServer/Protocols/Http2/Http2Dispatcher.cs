using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Hands the whole requests of an HTTP/2 connection to the session's hooks one at a time, in the order they were
/// completed, as HTTP/1.1 does: the next request goes to the hooks once the current one's response is completely
/// queued, so code that keeps per-session state across the hooks keeps working and the session's SendResponse methods
/// answer the current request's stream. Hooks run on the receive thread when a request completes there, or on the
/// thread pool when an answer sent later from another thread frees the hooks for a request that waited (never inside
/// the thread that answered, which may hold its own locks); one dispatcher runs at a time.
/// </summary>
internal sealed class Http2Dispatcher
{
    private readonly Http2StreamTable _streams;
    private readonly IHttpServerSessionHost _session;
    private readonly Queue<Http2Stream> _ready = new();

    // Requests handed to the hooks whose handle took them, not answered yet (at most the open streams).
    private readonly List<Http2Stream> _detached = new();
    private IHttpAnswerTarget? _answers;
    private Http2Stream? _current;
    private bool _running;
    private bool _stopped;
    private long _numbers;

    // The response clock: one timer, for the one request owed at a time, and that request's number.
    private CallbackTimer? _responseTimer;
    private long _timedNumber;

    // The header hook is running (receive or pool thread), and the body limit it chose by streaming the body (-1: kept whole).
    private bool _inHeaderHook;
    private long _streamLimit = -1;

    public Http2Dispatcher(Http2StreamTable streams, IHttpServerSessionHost session)
    {
        _streams = streams;
        _session = session;
    }

    /// <summary>Where the requests' handles answer; set once, before the first request.</summary>
    public void AnswerThrough(IHttpAnswerTarget answers) => _answers = answers;

    /// <summary>The request whose hooks ran last (the session's Request property), or null before the first.</summary>
    public HttpRequest? CurrentRequest
    {
        get
        {
            lock (_streams.Sync)
                return _current?.Request;
        }
    }

    /// <summary>
    /// The stream request <paramref name="number"/> came on while it may be answered: the current one (0 names it,
    /// unless its handle took it), or one whose handle took it.
    /// </summary>
    public Http2Stream? FindLocked(long number)
    {
        if (number == 0)
            return _current is { Detached: false } ? _current : null;
        if (_current?.Number == number)
            return _current;
        foreach (var stream in _detached)
        {
            if (stream.Number == number)
                return stream;
        }
        return null;
    }

    /// <summary>A request is whole (receive thread, lock not held): its hooks run now, or once those before it are answered.</summary>
    public void Enqueue(Http2Stream stream)
    {
        lock (_streams.Sync)
        {
            stream.Answer = Http2Answer.Queued;
            _ready.Enqueue(stream);
            if (_running || BlocksLocked())
                return;
            _running = true;
        }
        Run();
    }

    /// <summary>An answer was finished or a stream reset (any thread, lock not held): the next request may go to the hooks.</summary>
    public void Answered()
    {
        lock (_streams.Sync)
        {
            if (_running || _ready.Count == 0 || BlocksLocked() || _stopped)
                return;
            _running = true;
        }
        ThreadPool.UnsafeQueueUserWorkItem(static dispatcher => dispatcher.RunFromPool(), this, preferLocal: false);
    }

    /// <summary>The connection ended: nothing more goes to the hooks.</summary>
    public void StopLocked()
    {
        _stopped = true;
        _ready.Clear();
        _detached.Clear();
        _responseTimer?.Close();
    }

    private bool BlocksLocked() => _current is { Detached: false, Answer: Http2Answer.Owed or Http2Answer.Writing };

    // Off the receive loop, a hook that throws goes to OnHandlerException and closes the connection, as on the loop.
    private void RunFromPool() => _session.RaiseFromPool(this, static dispatcher => ((Http2Dispatcher)dispatcher).Run());

    private void Run()
    {
        while (true)
        {
            Http2Stream next;
            lock (_streams.Sync)
            {
                if (_stopped || BlocksLocked() || _ready.Count == 0)
                {
                    _running = false;
                    return;
                }
                next = _ready.Dequeue();
                // Reset by the client while it waited.
                if (next.Answer != Http2Answer.Queued)
                    continue;
                next.Number = ++_numbers;
                next.Answer = Http2Answer.Owed;
                next.StartedAt = _session.Metrics?.RequestStart() ?? 0;
                _current = next;
            }
            ArmResponseTimeout(next.Number);
            next.Request.ReceivedBy(_answers!, next.Number);
            try
            {
                RaiseHooks(next);
            }
            finally
            {
                lock (_streams.Sync)
                {
                    next.HooksReturned = true;
                    // Concurrency by opt-in: a request whose handle was taken and that is not answered yet is answered
                    // through the handle, later; the hooks go on to the next request meanwhile.
                    if (next.Answer == Http2Answer.Owed && next.Request.HandleTaken)
                    {
                        next.Detached = true;
                        _detached.RemoveAll(static s => s.Answer == Http2Answer.Done);
                        _detached.Add(next);
                    }
                    _streams.ReleaseRequestLocked(next);
                    if (_stopped)
                        _running = false;
                }
            }
        }
    }

    private void RaiseHooks(Http2Stream stream)
    {
        var request = stream.Request;
        _streamLimit = -1;
        _inHeaderHook = true;
        try
        {
            _session.RaiseRequestHeader(request);
        }
        finally
        {
            _inHeaderHook = false;
        }
        if (_streamLimit >= 0 && request.BodyLength > 0)
        {
            // The body arrived whole before its turn (the streams are multiplexed): it goes to the body hook in one piece.
            if (request.BodyLength > _streamLimit)
            {
                _session.RaiseRequestError(request, "the body is larger than allowed");
                _answers!.SendResponse(stream.Number, new HttpResponse().MakeErrorResponse(413, "the body is larger than allowed"), blocking: false);
                return;
            }
            _session.RaiseRequestBody(request, request.Store.BodySpan);
        }
        StaticStream? streamed = null;
        var cached = request.Method is "GET" or "HEAD" ? _session.FindCached(request, out streamed) : null;
        if (cached != null)
            _session.RaiseCachedRequest(request, cached);
        else if (streamed == null || !SendFile(stream.Number, streamed))
            _session.RaiseRequest(request);
    }

    /// <summary>
    /// A request handed to the hooks gets <see cref="HttpOptions.ResponseTimeout"/> to be answered: then a 503 on its
    /// stream. Unlike HTTP/1.1 the connection goes on, since the next request's answer cannot be mistaken for it.
    /// </summary>
    private void ArmResponseTimeout(long number)
    {
        var timeout = _session.Options.ResponseTimeout;
        if (timeout == Timeout.InfiniteTimeSpan)
            return;
        Volatile.Write(ref _timedNumber, number);
        _responseTimer ??= new CallbackTimer(_session.Timers, static d => ((Http2Dispatcher)d).ResponseTimedOut(), this);
        _responseTimer.Schedule(timeout);
    }

    private void ResponseTimedOut()
    {
        var number = Volatile.Read(ref _timedNumber);
        lock (_streams.Sync)
        {
            if (_stopped || _current == null || _current.Number != number || _current.Answer != Http2Answer.Owed)
                return;
        }
        _answers!.SendResponse(number, new HttpResponse().MakeErrorResponse(503, "No response was made for the request in time."), blocking: false);
    }

    /// <summary>From the header hook: see <see cref="HttpServerProtocol.StreamRequestBody"/>.</summary>
    public void StreamRequestBody(long limit)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(limit);
        if (!_inHeaderHook)
            throw new InvalidOperationException("StreamRequestBody is called from OnReceivedRequestHeader, for the request whose head just arrived.");
        _streamLimit = limit;
    }

    /// <summary>Answers with a part of a file too large to cache, read from the disk as it goes out; false when it cannot be opened.</summary>
    private bool SendFile(long number, StaticStream part)
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
        _ = SendFileAsync(number, part, file);
        return true;
    }

    private async Task SendFileAsync(long number, StaticStream part, FileStream file)
    {
        try
        {
            await _answers!.SendStreamAsync(number, part.Head, file, CancellationToken.None, part.Length).ConfigureAwait(false);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            // The file failed while read: the stream was reset.
        }
        finally
        {
            await file.DisposeAsync().ConfigureAwait(false);
        }
    }
}
