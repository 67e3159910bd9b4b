using System;
using System.Buffers;
using System.Collections.Generic;
using System.Threading;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Hands the requests of an HTTP/2 connection to the session's hooks one at a time, as HTTP/1.1 does: header hook, the
/// body pieces when the header hook streamed the body, then the request hook; the next request goes to the hooks once
/// the current one's hooks returned and its response is completely queued, so code that keeps per-session state across
/// the hooks keeps working and the session's SendResponse methods answer the current request's stream. Requests go in
/// the order they became ready: whole, or with their body still to come when the hooks were free as the head arrived
/// or when the body can go no further without the header hook's choice (past half its window or its limit). Hooks run
/// on the receive thread when what they need arrives there, or on the thread pool when an answer sent later from
/// another thread frees them (never inside the thread that answered, which may hold its own locks); one runner at a time.
/// </summary>
internal sealed class Http2Dispatcher
{
    private enum Step
    {
        None,
        Start,
        Deliver,
        Refuse,
        Finish,
    }

    private readonly Http2StreamTable _streams;
    private readonly Http2Output _output;
    private readonly IHttpServerSessionHost _session;
    private readonly Queue<Http2Stream> _ready = new();

    // Requests handed to the hooks whose handle took them, not answered yet (at most the open streams).
    private readonly List<Http2Stream> _detached = new();
    private Http2Answers? _answers;
    private Action<int, Http2ErrorCode>? _reset;
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

    public Http2Dispatcher(Http2StreamTable streams, Http2Output output, IHttpServerSessionHost session)
    {
        _streams = streams;
        _output = output;
        _session = session;
    }

    /// <summary>Where the requests' handles answer, and how a stream is reset; set once, before the first request.</summary>
    public void AnswerThrough(Http2Answers answers, Action<int, Http2ErrorCode> reset)
    {
        _answers = answers;
        _reset = reset;
    }

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

    /// <summary>A request is ready (receive thread, lock not held): its hooks run now, or once those before it are done.</summary>
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

    /// <summary>
    /// A head arrived with its body to come (receive thread): it goes to the hooks at once if nothing holds or waits for
    /// them, so that its header hook may stream the body as it arrives, as over HTTP/1.1; otherwise it waits.
    /// </summary>
    public void EnqueueIfIdle(Http2Stream stream)
    {
        lock (_streams.Sync)
        {
            if (_running || _stopped || _ready.Count > 0 || BlocksLocked())
                return;
        }
        Enqueue(stream);
    }

    /// <summary>Body bytes, the body's end or its refusal, for a request already handed over (receive thread, lock not held).</summary>
    public void Continue()
    {
        lock (_streams.Sync)
        {
            if (_running || _stopped)
                return;
            _running = true;
        }
        Run();
    }

    /// <summary>An answer was finished or a stream reset (any thread, lock not held): the hooks may go on.</summary>
    public void Answered()
    {
        lock (_streams.Sync)
        {
            if (_running || _stopped || !HasWorkLocked())
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

    // Its header hook returned and its request hook has not.
    private static bool InProgress(Http2Stream? stream) => stream is { BodyMode: not Http2BodyMode.Undecided, HooksReturned: false };

    // A streamed body (a file too large to cache, SendResponseStreamAsync) does not hold the hooks once they returned: its
    // producer waits for its own stream's window, and a client that never opens it must not stop the other streams.
    private bool BlocksLocked() => _current is { Detached: false } current
        && (current.Answer == Http2Answer.Owed || (current.Answer == Http2Answer.Writing && current.BodyLeft != Http2Stream.Streaming) || InProgress(current));

    private bool HasWorkLocked() => InProgress(_current) || _detached.Exists(InProgress) || (_ready.Count > 0 && !BlocksLocked());

    // Off the receive loop, a hook that throws goes to OnHandlerException and closes the connection, as on the loop.
    private void RunFromPool() => _session.RaiseFromPool(this, static dispatcher => ((Http2Dispatcher)dispatcher).Run());

    private void Run()
    {
        while (true)
        {
            Http2Stream? stream = null;
            var step = Step.None;
            byte[]? arrived = null;
            var length = 0;
            lock (_streams.Sync)
            {
                if (!_stopped)
                    step = NextLocked(out stream, out arrived, out length);
                if (step == Step.None)
                {
                    _running = false;
                    return;
                }
            }
            try
            {
                switch (step)
                {
                    case Step.Start:
                        Start(stream!);
                        break;
                    case Step.Deliver:
                        Deliver(stream!, arrived, length);
                        break;
                    case Step.Refuse:
                        Refuse(stream!);
                        break;
                    default:
                        Finish(stream!);
                        break;
                }
            }
            catch
            {
                lock (_streams.Sync)
                {
                    stream!.HooksReturned = true;
                    _streams.ReleaseRequestLocked(stream);
                }
                throw;
            }
        }
    }

    /// <summary>What the hooks do next: the current request's next step, a detached upload's, or the next request's header hook.</summary>
    private Step NextLocked(out Http2Stream? stream, out byte[]? arrived, out int length)
    {
        arrived = null;
        length = 0;
        stream = _current;
        if (stream is { Detached: false } && InProgress(stream) && StepOfLocked(stream, out arrived, out length) is var own and not Step.None)
            return own;
        foreach (var detached in _detached)
        {
            stream = detached;
            if (InProgress(detached) && StepOfLocked(detached, out arrived, out length) is var step and not Step.None)
                return step;
        }
        while (!BlocksLocked() && _ready.Count > 0)
        {
            stream = _ready.Dequeue();
            // Reset by the client while it waited.
            if (stream.Answer != Http2Answer.Queued)
                continue;
            stream.Number = ++_numbers;
            stream.Answer = Http2Answer.Owed;
            stream.StartedAt = _session.Metrics?.RequestStart() ?? 0;
            _current = stream;
            return Step.Start;
        }
        stream = null;
        return Step.None;
    }

    // The next step of a request whose header hook returned: its body pieces, a refusal, or its request hook once whole.
    private Step StepOfLocked(Http2Stream stream, out byte[]? arrived, out int length)
    {
        arrived = null;
        length = 0;
        if (stream.WasReset)
        {
            // What is left of its hooks does not run: the client gave up on it.
            stream.HooksReturned = true;
            _streams.ReleaseRequestLocked(stream);
            return Step.None;
        }
        if (stream.TooLarge)
            return Step.Refuse;
        if (stream.BodyMode == Http2BodyMode.Streamed)
        {
            // The bytes kept before the header hook chose come first, from the request (nobody appends to it now).
            if (stream.Request.Store.BodySize > 0)
                return Step.Deliver;
            if (stream.ArrivedLength > 0)
            {
                arrived = stream.TakeArrived(out length);
                return Step.Deliver;
            }
        }
        return stream.BodyEnded ? Step.Finish : Step.None;
    }

    /// <summary>The header hook, then the body's way to the hooks as it chose.</summary>
    private void Start(Http2Stream stream)
    {
        var request = stream.Request;
        if (stream.BodyEnded)
            ArmResponseTimeout(stream.Number);
        request.ReceivedBy(_answers!, stream.Number);
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
        lock (_streams.Sync)
            ChooseLocked(stream);
        _output.Flush();
    }

    private void ChooseLocked(Http2Stream stream)
    {
        var store = stream.Request.Store;
        long limit;
        if (_streamLimit >= 0)
        {
            stream.BodyMode = Http2BodyMode.Streamed;
            stream.StreamLimit = limit = _streamLimit;
            // The padding's credit goes back now, the kept bytes' as the body hook takes them.
            var kept = store.BodySize + stream.ArrivedLength;
            _output.CreditLocked(stream, stream.HeldCredit - kept);
            stream.HeldCredit = kept;
            // Concurrency by opt-in: an upload whose handle was taken lets other requests' hooks run between its pieces.
            if (stream.Request.HandleTaken && stream.Answer == Http2Answer.Owed && !stream.Detached)
            {
                stream.Detached = true;
                _detached.RemoveAll(static s => s.Answer == Http2Answer.Done && !InProgress(s));
                _detached.Add(stream);
            }
        }
        else
        {
            stream.BodyMode = Http2BodyMode.Whole;
            limit = _session.Options.MaxBodySize;
            var arrived = stream.TakeArrived(out var length);
            if (arrived != null)
            {
                store.AppendBody(arrived.AsSpan(0, length));
                ArrayPool<byte>.Shared.Return(arrived);
            }
            _output.CreditLocked(stream, stream.HeldCredit);
            stream.HeldCredit = 0;
        }
        if (stream.BodyReceived > limit || stream.DeclaredLength > limit)
            stream.TooLarge = true;
    }

    /// <summary>A piece of a streamed body to the body hook; its credit goes back once the hook returned.</summary>
    private void Deliver(Http2Stream stream, byte[]? arrived, int length)
    {
        var request = stream.Request;
        var piece = arrived == null ? request.Store.BodySpan : arrived.AsSpan(0, length);
        length = piece.Length;
        try
        {
            _session.RaiseRequestBody(request, piece);
        }
        finally
        {
            lock (_streams.Sync)
            {
                if (arrived == null)
                    request.Store.DropBody();
                stream.HeldCredit -= length;
                _output.CreditLocked(stream, length);
            }
            if (arrived != null)
                ArrayPool<byte>.Shared.Return(arrived);
            _output.Flush();
        }
    }

    /// <summary>The body passed its limit: OnReceivedRequestError and 413, as over HTTP/1.1, then the client is asked to stop sending (§8.1).</summary>
    private void Refuse(Http2Stream stream)
    {
        const string reason = "the body is larger than allowed";
        try
        {
            _session.RaiseRequestError(stream.Request, reason);
        }
        finally
        {
            _answers!.SendResponse(stream.Number, new HttpResponse().MakeErrorResponse(413, reason), blocking: false);
            bool open;
            lock (_streams.Sync)
            {
                stream.HooksReturned = true;
                open = !stream.BodyEnded && stream.State != Http2StreamState.Closed;
                _streams.ReleaseRequestLocked(stream);
            }
            if (open)
                _reset!(stream.Id, Http2ErrorCode.NoError);
        }
    }

    /// <summary>The request is whole (or its streamed body was all taken): the static content or the request hook.</summary>
    private void Finish(Http2Stream stream)
    {
        var request = stream.Request;
        if (!stream.Detached)
            ArmResponseTimeout(stream.Number);
        try
        {
            StaticStream? streamed = null;
            var cached = request.Method is "GET" or "HEAD" ? _session.FindCached(request, out streamed) : null;
            if (cached != null)
                _session.RaiseCachedRequest(request, cached);
            else if (streamed == null || !_answers!.SendFile(stream.Number, streamed))
                _session.RaiseRequest(request);
        }
        finally
        {
            lock (_streams.Sync)
            {
                stream.HooksReturned = true;
                // Concurrency by opt-in: a request whose handle was taken and that is not answered yet is answered
                // through the handle, later; the hooks go on to the next request meanwhile.
                if (stream.Answer == Http2Answer.Owed && request.HandleTaken && !stream.Detached)
                {
                    stream.Detached = true;
                    _detached.RemoveAll(static s => s.Answer == Http2Answer.Done && !InProgress(s));
                    _detached.Add(stream);
                }
                _streams.ReleaseRequestLocked(stream);
            }
        }
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
}
