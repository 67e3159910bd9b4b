using System.Threading;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The one answer an HTTP/1.1 connection owes at a time. It is opened when a request head arrives, claimed by the
/// first response for that request (from a hook, another thread, a static file, a stream or an error answer) and done
/// once the response's last byte is queued; the protocol reads the next pipelined request only then, so no response
/// can take another's place. Requests are numbered: a response for a number that is no longer owed is refused.
/// </summary>
/// <remarks>
/// Lock: its own; nothing is sent under it. A writer claims under the lock, queues its bytes, then calls
/// <see cref="Finish"/> for a claim that ended the answer: until then the answer still blocks the next request.
/// </remarks>
internal sealed class HttpOwedAnswer
{
    /// <summary>A body whose end is not known: the connection closes after it.</summary>
    public const long UntilClose = -1;

    // A streamed body: the stream writes it, SendBody may not.
    private const long Streaming = -2;

    private readonly object _lock = new();
    private Phase _phase;
    private long _number;
    private bool _headOnly;
    private bool _close;
    private bool _dispatched;
    private bool _draining;
    private long _bodyLeft;

    private enum Phase
    {
        /// <summary>Nothing owed: before the first request, or its answer is done.</summary>
        Idle,

        /// <summary>A request's head arrived; nothing of its answer is queued.</summary>
        Owed,

        /// <summary>The answer is claimed and goes out; <see cref="_bodyLeft"/> says what may still come.</summary>
        Writing,

        /// <summary>The connection is closing: nothing more is answered.</summary>
        Closed,
    }

    /// <summary>What a response may do with the answer owed.</summary>
    public enum Claim
    {
        /// <summary>Not this request's turn: answered already, timed out, or the connection is closing.</summary>
        Refused,

        /// <summary>An interim response (1xx other than 101): send it; the answer is still owed.</summary>
        Interim,

        /// <summary>The response is the whole answer: queue it, then <see cref="Finish"/>.</summary>
        Whole,

        /// <summary>The head and some body: more body follows (declared by the head, or until the connection closes).</summary>
        Partial,
    }

    /// <summary>True while an answer is owed or going out: the next request waits.</summary>
    public bool Blocks
    {
        get
        {
            lock (_lock)
                return _phase is Phase.Owed or Phase.Writing;
        }
    }

    /// <summary>The server drains: the answer owed or going out is the connection's last (see <see cref="Drain"/>).</summary>
    /// <remarks>Read without the lock: it only ever turns true.</remarks>
    public bool Draining => Volatile.Read(ref _draining);

    /// <summary>
    /// The server drains (<c>StopAsync</c>): the answer owed or going out becomes the connection's last, the connection
    /// closing once it is queued. True when there is one; false when the connection is idle between requests.
    /// </summary>
    public bool Drain()
    {
        lock (_lock)
        {
            Volatile.Write(ref _draining, true);
            if (_phase is not (Phase.Owed or Phase.Writing))
                return false;
            _close = true;
            return true;
        }
    }

    /// <summary>True when request <paramref name="number"/> needs nothing more: answered whole, or the connection is closing.</summary>
    public bool IsAnswered(long number)
    {
        lock (_lock)
            return number != _number || _phase is Phase.Idle or Phase.Closed;
    }

    /// <summary>A request head arrived (receive thread, once the previous answer is done); returns its number.</summary>
    public long Open(bool headOnly, bool close)
    {
        lock (_lock)
        {
            if (_phase == Phase.Closed)
                return _number;
            _phase = Phase.Owed;
            _headOnly = headOnly;
            _close = close || _draining;
            _dispatched = false;
            _bodyLeft = 0;
            return ++_number;
        }
    }

    /// <summary>The request was read whole and is handed over; true when nothing of its answer is queued yet.</summary>
    public bool Dispatched()
    {
        lock (_lock)
        {
            _dispatched = true;
            return _phase == Phase.Owed;
        }
    }

    /// <summary>
    /// Claims the answer to request <paramref name="number"/> (0: the one owed now) for a response with
    /// <paramref name="status"/> whose head declares <paramref name="declaredBody"/> body bytes (<see cref="UntilClose"/>
    /// when it declares no length) of which <paramref name="bodyNow"/> come with it.
    /// </summary>
    public Claim TryClaim(long number, int status, long declaredBody, long bodyNow, out bool headOnly, out bool closeAfter)
    {
        lock (_lock)
        {
            headOnly = _headOnly;
            closeAfter = false;
            if (_phase != Phase.Owed || (number != 0 && number != _number))
                return Claim.Refused;
            if (status is >= 100 and < 200 and not 101)
                return Claim.Interim;
            _phase = Phase.Writing;
            // RFC 9112 section 6.3: these carry no body whatever their head says.
            var left = headOnly || status is 101 or 204 or 304 || (status is >= 100 and < 200) ? 0
                : declaredBody == UntilClose ? UntilClose
                : System.Math.Max(0, declaredBody - bodyNow);
            _bodyLeft = left;
            if (left == UntilClose)
                _close = true;
            closeAfter = left == 0 && _close;
            return left == 0 ? Claim.Whole : Claim.Partial;
        }
    }

    /// <summary>
    /// Claims <paramref name="length"/> more body bytes of the answer under way to request <paramref name="number"/> (0:
    /// the newest); <paramref name="last"/> when they end it (then queue them and <see cref="Finish"/>). Refused when no
    /// answer is under way or it declared fewer bytes: they would land in the next response.
    /// </summary>
    public bool TryClaimBody(long number, long length, out bool last, out bool closeAfter)
    {
        lock (_lock)
        {
            last = false;
            closeAfter = false;
            if (_phase != Phase.Writing || (number != 0 && number != _number) || _bodyLeft == Streaming || _bodyLeft == 0)
                return false;
            if (_bodyLeft == UntilClose)
                return true;
            if (length > _bodyLeft)
                return false;
            _bodyLeft -= length;
            last = _bodyLeft == 0;
            closeAfter = last && _close;
            return true;
        }
    }

    /// <summary>Claims the answer to request <paramref name="number"/> (0: the one owed now) for a streamed body.</summary>
    public bool TryClaimStream(long number, out bool headOnly, out bool closeAfter)
    {
        lock (_lock)
        {
            headOnly = _headOnly;
            closeAfter = _close;
            if (_phase != Phase.Owed || (number != 0 && number != _number))
                return false;
            _phase = Phase.Writing;
            _bodyLeft = Streaming;
            return true;
        }
    }

    /// <summary>
    /// Claims the connection's last answer for an error status (the connection then closes): true when nothing of a
    /// response is queued, so the error goes out whole; false when a response is under way (only closing is left).
    /// </summary>
    public bool TryClaimError()
    {
        lock (_lock)
        {
            var free = _phase is Phase.Idle or Phase.Owed;
            _phase = Phase.Closed;
            return free;
        }
    }

    /// <summary>
    /// Claims the answer to a request read whole of which nothing is queued yet, for the response timeout's 503 (the
    /// connection then closes); false when its response began meanwhile.
    /// </summary>
    public bool TryClaimUnanswered()
    {
        lock (_lock)
        {
            if (_phase != Phase.Owed || !_dispatched)
                return false;
            _phase = Phase.Closed;
            return true;
        }
    }

    /// <summary>The claimed answer's last bytes are queued: done. True when the connection goes on to the next request.</summary>
    public bool Finish()
    {
        lock (_lock)
        {
            if (_phase != Phase.Writing)
                return false;
            _phase = _close ? Phase.Closed : Phase.Idle;
            return !_close;
        }
    }

    /// <summary>The connection is closing: nothing more is answered.</summary>
    public void Close()
    {
        lock (_lock)
            _phase = Phase.Closed;
    }
}
