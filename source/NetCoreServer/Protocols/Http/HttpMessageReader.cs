using System;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The incremental reader both directions share, on Kestrel's input contract: <see cref="Read"/> is handed everything
/// received and not consumed yet, says how much it consumed, and the caller keeps the rest and hands it again (first)
/// with more. Per message it returns <see cref="HttpReadResult.HeaderReady"/> once (the head consumed and parsed), then
/// <see cref="HttpReadResult.NeedMoreData"/> while body bytes are consumed, then <see cref="HttpReadResult.MessageReady"/>
/// once; a message without a body gives MessageReady on the call after HeaderReady, consuming nothing. The call after
/// MessageReady starts the next message (as <see cref="Reset"/> does), so a caller loops on <see cref="Read"/> until
/// NeedMoreData or Error, advancing by what each call consumed. Bad input never throws: it gives
/// <see cref="HttpReadResult.Error"/> with <see cref="ErrorStatus"/> and <see cref="ErrorReason"/>, and the reader stays
/// in error (the framing of the stream is lost; the connection should be answered and closed). Not thread-safe.
/// </summary>
internal abstract class HttpMessageReader
{
    private enum State
    {
        Head,
        Body,
        Done,
        Failed,
    }

    private readonly HttpHeadParser _head;
    private readonly HttpBodyReader _body;
    private State _state;

    private protected HttpMessageReader(bool request, HttpMessageStore store, HttpLimits? limits)
    {
        Store = store;
        Limits = limits ?? new HttpLimits();
        _head = new HttpHeadParser(request, Limits, store);
        _body = new HttpBodyReader(Limits, store);
        store.Clear();
    }

    /// <summary>The limits checked; changes apply from the next check.</summary>
    public HttpLimits Limits { get; }

    private protected HttpMessageStore Store { get; }

    private protected HttpHeadParser Head => _head;

    private protected HttpBodyReader Body => _body;

    /// <summary>
    /// Whether the connection may carry another message after this one: HTTP/1.1 unless <c>Connection: close</c>;
    /// HTTP/1.0 only with <c>Connection: keep-alive</c> (and no close). Known once the head is in.
    /// </summary>
    public bool KeepAlive { get; private protected set; }

    /// <summary>True when the body is chunked (Transfer-Encoding ending in chunked).</summary>
    public bool IsChunked => _body.IsChunked && _state is State.Body or State.Done;

    /// <summary>The declared Content-Length once the head is in, or -1 when there is none (chunked, or no body length given).</summary>
    public long ContentLength => _state is State.Body or State.Done ? _head.ContentLength : -1;

    /// <summary>True between HeaderReady and MessageReady: the head is in, the body is being read.</summary>
    public bool IsReadingBody => _state == State.Body;

    /// <summary>True after <see cref="HttpReadResult.Error"/>; the reader stays so.</summary>
    public bool IsFailed => _state == State.Failed;

    /// <summary>
    /// After an error, the status to answer with: 400 (malformed, or framing that could smuggle), 413 (body over
    /// <see cref="HttpLimits.MaxBodySize"/>), 414 (request line over <see cref="HttpLimits.MaxRequestLineSize"/>), 431
    /// (head over <see cref="HttpLimits.MaxHeadSize"/> or <see cref="HttpLimits.MaxHeaderCount"/>), 501 (transfer coding
    /// not implemented), 505 (HTTP version other than 1.0 and 1.1). For a response it classifies the failure the same
    /// way. 0 while there is no error.
    /// </summary>
    public int ErrorStatus { get; private set; }

    /// <summary>After an error, a short description of what was refused, for logs (never echoes the peer's bytes); "" otherwise.</summary>
    public string ErrorReason { get; private set; } = string.Empty;

    /// <summary>
    /// Parses what it can of <paramref name="data"/>: everything received and not consumed yet, starting with the bytes
    /// left unconsumed by the previous call. <paramref name="consumed"/> says how many bytes from the front it took
    /// (the head once complete, body bytes as they come); the rest must be handed again.
    /// </summary>
    public HttpReadResult Read(ReadOnlySpan<byte> data, out int consumed)
    {
        consumed = 0;
        switch (_state)
        {
            case State.Failed:
                return HttpReadResult.Error;
            case State.Done:
                Reset();
                return ReadHead(data, out consumed);
            case State.Head:
                return ReadHead(data, out consumed);
            default:
                var result = _body.Read(data, out consumed);
                if (result == BodyResult.Error)
                    return Fail(_body.ErrorStatus, _body.ErrorReason);
                if (result == BodyResult.NeedMoreData)
                    return HttpReadResult.NeedMoreData;
                _state = State.Done;
                return HttpReadResult.MessageReady;
        }
    }

    /// <summary>
    /// Call when the stream ended. Returns <see cref="HttpReadResult.MessageReady"/> when that completes a message (a
    /// response read until close, or a bodiless message whose MessageReady was not fetched yet),
    /// <see cref="HttpReadResult.NeedMoreData"/> when no message was under way (a clean close between messages), and
    /// <see cref="HttpReadResult.Error"/> (400) when a message was cut short.
    /// </summary>
    public HttpReadResult Complete()
    {
        switch (_state)
        {
            case State.Failed:
                return HttpReadResult.Error;
            case State.Done:
                return HttpReadResult.NeedMoreData;
            case State.Head:
                return _head.HasPartialHead ? Fail(400, "the connection closed in the middle of a head") : HttpReadResult.NeedMoreData;
            default:
                if (_body.Complete() == BodyResult.Error)
                    return Fail(_body.ErrorStatus, _body.ErrorReason);
                _state = State.Done;
                return HttpReadResult.MessageReady;
        }
    }

    /// <summary>Readies the reader and its message for the next message (the call after MessageReady does this itself). An error stays.</summary>
    public void Reset()
    {
        if (_state == State.Failed)
            return;
        Store.Clear();
        _head.Reset();
        _body.StartNone();
        KeepAlive = false;
        OnReset();
        _state = State.Head;
    }

    /// <summary>Chooses the body framing once the head is in (RFC 9112 §6.3); false after <see cref="Fail"/>.</summary>
    private protected abstract bool StartBody();

    private protected virtual void OnReset()
    {
    }

    private protected HttpReadResult Fail(int status, string reason)
    {
        ErrorStatus = status;
        ErrorReason = reason;
        Store.IsErrorSet = true;
        _state = State.Failed;
        return HttpReadResult.Error;
    }

    private protected bool FailFraming(int status, string reason)
    {
        Fail(status, reason);
        return false;
    }

    /// <summary>KeepAlive from the version and Connection options (RFC 9112 §9.3).</summary>
    private protected bool PersistentByHead()
        => !_head.ConnectionClose && (_head.Version == 11 || _head.ConnectionKeepAlive);

    private HttpReadResult ReadHead(ReadOnlySpan<byte> data, out int consumed)
    {
        consumed = 0;
        switch (_head.Parse(data))
        {
            case HeadResult.Incomplete:
                return HttpReadResult.NeedMoreData;
            case HeadResult.Error:
                return Fail(_head.ErrorStatus, _head.ErrorReason);
        }
        Store.CommitHead(data[_head.Skipped.._head.HeadLength]);
        consumed = _head.HeadLength;
        _state = State.Body;
        if (!StartBody())
            return HttpReadResult.Error;
        return HttpReadResult.HeaderReady;
    }
}
