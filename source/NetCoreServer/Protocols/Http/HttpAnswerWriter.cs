using System;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The sending side of <see cref="HttpServerProtocol"/>: every response of the connection (from a hook, a request's
/// <see cref="HttpRequestHandle"/>, prepared static bytes, a stream, an error) claims the answer owed
/// (<see cref="HttpOwedAnswer"/>), goes to the <see cref="HttpOutbox"/>, and finishes the answer once its last byte is
/// queued; the protocol is then told, to read the next request. Sends come from any thread; no lock of its own.
/// </summary>
internal sealed class HttpAnswerWriter : IHttpAnswerTarget
{
    private static readonly byte[] s_continue = Encoding.ASCII.GetBytes("HTTP/1.1 100 Continue\r\n\r\n");

    private readonly IHttpServerSessionHost _session;
    private readonly HttpOwedAnswer _answer;
    private readonly HttpOutbox _outbox;
    private readonly HttpRequestTimeouts _timeouts;
    private readonly Action _finished;

    // Made on the first streamed response.
    private HttpStreamedResponse? _streamed;

    // The request owed, for http.server.request.duration: when its head was read (0: not timed) and its method.
    private long _requestAt;
    private string _method = "";

    /// <summary>Writes through <paramref name="outbox"/>; <paramref name="finished"/> runs after each answer is done.</summary>
    public HttpAnswerWriter(IHttpServerSessionHost session, HttpOwedAnswer answer, HttpOutbox outbox, HttpRequestTimeouts timeouts, Action finished)
    {
        _session = session;
        _answer = answer;
        _outbox = outbox;
        _timeouts = timeouts;
        _finished = finished;
    }

    /// <summary>A request's head was read (the receive thread): its duration runs until its response is queued.</summary>
    public void RequestRead(string method)
    {
        _method = method;
        Volatile.Write(ref _requestAt, _session.Metrics?.RequestStart() ?? 0);
    }

    /// <summary>The final response to the request owed was queued: its duration is recorded, once.</summary>
    private void Answered(int status)
    {
        var at = Interlocked.Exchange(ref _requestAt, 0);
        if (at != 0)
            _session.Metrics?.RequestAnswered(at, _method, status);
    }

    /// <summary>
    /// Sends a response to request <paramref name="number"/> (0: the one owed now; the head alone for a HEAD request),
    /// then closes the connection if that request asked for it; false, sending nothing, when it is not owed.
    /// </summary>
    public bool SendResponse(long number, HttpResponse response, bool blocking)
    {
        response.Store.Split(out var head, out var body);
        var claim = _answer.TryClaim(number, response.Status, DeclaredBody(response), body.Length, out var headOnly, out var closeAfter);
        if (claim == HttpOwedAnswer.Claim.Refused)
            return false;
        if (headOnly)
            body = default;
        if (claim != HttpOwedAnswer.Claim.Interim)
        {
            Answered(response.Status);
            // Not on a 101: its Connection header names the upgrade.
            if (_answer.Draining && response.Status != 101 && response.Store.BodyStart > 0)
                head = WithConnectionClose(head);
        }
        var sent = _outbox.Send(head, body, blocking, closeAfter);
        if (claim == HttpOwedAnswer.Claim.Whole)
            Finished();
        else if (claim == HttpOwedAnswer.Claim.Partial)
            _timeouts.StartIdle();
        return sent;
    }

    /// <summary>The body length a response's head declares, or <see cref="HttpOwedAnswer.UntilClose"/> when it declares none.</summary>
    private static long DeclaredBody(HttpResponse response)
    {
        var store = response.Store;
        // No end of head written by the builder: raw bytes taken as they are, the whole answer.
        if (store.BodyStart <= 0)
            return 0;
        if (store.HasToken("transfer-encoding"u8, "chunked"u8) || store.FindField("content-length"u8) < 0)
            return HttpOwedAnswer.UntilClose;
        return store.BodyLength;
    }

    /// <summary>
    /// Sends more body bytes of request <paramref name="number"/>'s response under way (0: the newest request's), whose
    /// head declared them; false when none is under way, or it declared fewer.
    /// </summary>
    public bool SendBody(long number, ReadOnlySpan<byte> body, bool blocking)
    {
        if (body.IsEmpty)
            return true;
        if (!_answer.TryClaimBody(number, body.Length, out var last, out var closeAfter))
            return false;
        var sent = _outbox.Send(body, default, blocking, closeAfter);
        if (last)
            Finished();
        return sent;
    }

    /// <summary>
    /// Answers request <paramref name="number"/> (0: the one owed now) with a body read from <paramref name="body"/> as
    /// it goes out (<see cref="HttpStreamedResponse"/>), <paramref name="bodyLength"/> bytes of it when given; false
    /// when the request is not owed. The next request is read once the stream ended.
    /// </summary>
    public Task<bool> SendStreamAsync(long number, HttpResponse response, Stream body, CancellationToken cancellationToken, long? bodyLength = null)
    {
        if (response.Store.BodyStart != 0)
            return Task.FromException<bool>(new InvalidOperationException("The response already has a body; set only its start line and headers (SetBegin, SetHeader) before streaming a body."));
        if (!_answer.TryClaimStream(number, out var headOnly, out var closeAfter))
            return Task.FromResult(false);
        Answered(response.Status);
        if (_answer.Draining)
            response.SetHeader("Connection", "close");
        _timeouts.StartIdle();
        var streamed = Volatile.Read(ref _streamed);
        if (streamed == null)
        {
            var made = new HttpStreamedResponse(_session, _outbox);
            streamed = Interlocked.CompareExchange(ref _streamed, made, null) ?? made;
        }
        return StreamAsync(streamed, response, headOnly, closeAfter, body, cancellationToken, bodyLength);
    }

    private async Task<bool> StreamAsync(HttpStreamedResponse streamed, HttpResponse response, bool headOnly, bool closeAfter, Stream body, CancellationToken cancellationToken, long? bodyLength)
    {
        var complete = false;
        try
        {
            complete = await streamed.SendAsync(response, headOnly, body, cancellationToken, bodyLength).ConfigureAwait(false);
            return complete;
        }
        finally
        {
            if (complete && !closeAfter)
            {
                Finished();
            }
            else
            {
                // A body cut short leaves the client waiting for bytes that will not come: only closing tells it.
                _answer.Close();
                _outbox.CloseWhenQueued();
            }
        }
    }

    /// <summary>Sends prepared response bytes (cached static content) to the request owed.</summary>
    public bool SendPrepared(byte[] content)
    {
        if (_answer.TryClaim(0, 200, 0, 0, out var headOnly, out var closeAfter) == HttpOwedAnswer.Claim.Refused)
            return false;
        Answered(StatusOf(content));
        var headLength = HeadLength(content);
        bool sent;
        if (_answer.Draining)
        {
            // The shared bytes stay as they are: the head is copied with the header (once per connection, at a drain).
            sent = _outbox.Send(WithConnectionClose(content.AsSpan(0, headLength)), headOnly ? default : content.AsSpan(headLength), blocking: false, closeAfter);
        }
        else
        {
            sent = _outbox.SendShared(content, headOnly ? headLength : content.Length, closeAfter);
        }
        Finished();
        return sent;
    }

    /// <summary>The answer's last bytes are queued: the clock goes back to keep-alive and the next request may be read.</summary>
    private void Finished()
    {
        if (_answer.Finish())
            _timeouts.StartIdle();
        else if (_answer.Draining)
            _outbox.CloseWhenQueued(); // A drain that began while the answer went out: it closes after it (Disconnect is idempotent).
        _finished();
    }

    /// <summary>A response head (ending with its blank line) with <c>Connection: close</c> added, for the last answer of a drain (RFC 9112 section 9.6).</summary>
    private static byte[] WithConnectionClose(ReadOnlySpan<byte> head)
    {
        ReadOnlySpan<byte> header = "Connection: close\r\n\r\n"u8;
        if (!head.EndsWith("\r\n\r\n"u8))
            return head.ToArray();
        var copy = GC.AllocateUninitializedArray<byte>(head.Length - 2 + header.Length);
        head[..^2].CopyTo(copy);
        header.CopyTo(copy.AsSpan(head.Length - 2));
        return copy;
    }

    // Prepared bytes start with their status line, "HTTP/1.1 200 ...".
    private static int StatusOf(byte[] message)
        => message.Length >= 12 && int.TryParse(message.AsSpan(9, 3), out var status) ? status : 200;

    private static int HeadLength(byte[] message)
    {
        var end = message.AsSpan().IndexOf("\r\n\r\n"u8);
        return end < 0 ? message.Length : end + 4;
    }

    bool IHttpAnswerTarget.IsAnswered(long number) => _answer.IsAnswered(number);

    /// <summary>An interim 100 Continue for the request owed, unless a final response was sent for it already (RFC 9110 section 10.1.1).</summary>
    public void SendContinue()
    {
        if (_answer.TryClaim(0, 100, 0, 0, out _, out _) == HttpOwedAnswer.Claim.Interim)
            _outbox.Send(s_continue, default, blocking: false, closeAfter: false);
    }

    /// <summary>The connection's last answer, an error, then a close; only the close when a response is under way (it cannot be cut into).</summary>
    public void SendError(int status, string reason, bool claimed = false)
    {
        if (!claimed && !_answer.TryClaimError())
        {
            _session.Disconnect();
            return;
        }
        Answered(status);
        var response = new HttpResponse();
        response.SetBegin(status).SetHeader("Connection", "close");
        if (reason.Length > 0)
            response.SetHeader("Content-Type", "text/plain; charset=UTF-8");
        response.SetBody(reason);
        _outbox.Send(response.Cache.AsSpan(), default, blocking: false, closeAfter: true);
    }


    public bool IsAnswered(long number) => _answer.IsAnswered(number);
}
