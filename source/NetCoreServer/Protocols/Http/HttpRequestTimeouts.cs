using System;
using System.Threading;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The clocks of one HTTP connection, one entry on its server's <see cref="TimerWheel"/>: keep-alive (between requests,
/// and while a response goes out: sending meanwhile restarts it), the header timeout once a head has begun, for a
/// request body the minimum data rate over each window of one grace period (Kestrel's rule, windowed) or the
/// keep-alive timeout when the rate is off, and the response
/// timeout while a request read whole waits for its response to begin. When a clock
/// runs out, <see cref="HttpServerProtocol.TimedOut"/> decides between a 408 and a plain close.
/// </summary>
/// <remarks>
/// No lock of its own: the receive loop writes the phase and the body counters, the expiry reads them (volatile); the
/// protocol reads the phase under its lock when it decides, and ends a head under that lock.
/// </remarks>
internal sealed class HttpRequestTimeouts : TimerEntry
{
    private readonly IHttpServerSessionHost _session;
    private readonly HttpServerProtocol _protocol;

    // A head has begun (its clock runs) and not been dispatched yet.
    private bool _headStarted;

    // The body under way: when its head ended (Wheel.Now, ms) and how many bytes of it came.
    private bool _readingBody;
    private long _bodyStart;
    private long _bodyBytes;

    // A request read whole waits for its response to begin: the response timeout runs.
    private bool _awaitingResponse;

    // BytesSent when the idle clock was armed while an answer is owed: sending meanwhile is not idleness.
    private long _sentAtArm;
    private long _idleSince;

    public HttpRequestTimeouts(IHttpServerSessionHost session, HttpServerProtocol protocol)
        : base(session.Timers)
    {
        _session = session;
        _protocol = protocol;
    }

    /// <summary>True from the first bytes of a head until its request is dispatched.</summary>
    public bool HeadStarted => Volatile.Read(ref _headStarted);

    /// <summary>True while a request body arrives.</summary>
    public bool ReadingBody => Volatile.Read(ref _readingBody);

    /// <summary>The keep-alive clock: between requests, and while an answer is owed (sending meanwhile restarts it).</summary>
    public void StartIdle()
    {
        Volatile.Write(ref _awaitingResponse, false);
        Volatile.Write(ref _idleSince, Wheel.Now);
        Volatile.Write(ref _sentAtArm, _session.BytesSent);
        Schedule(_session.Options.KeepAliveTimeout);
    }

    /// <summary>A request was read whole: its response must begin within the response timeout (then the protocol answers 503).</summary>
    public void StartResponse()
    {
        var timeout = _session.Options.ResponseTimeout;
        Volatile.Write(ref _awaitingResponse, true);
        // The wheel fires a non-positive delay at once: an infinite timeout is no clock at all.
        if (timeout == Timeout.InfiniteTimeSpan)
            Cancel();
        else
            Schedule(timeout);
    }

    /// <summary>The first bytes of a head arrived: from now on the head timeout applies, not the idle one.</summary>
    public void StartHead()
    {
        Volatile.Write(ref _awaitingResponse, false);
        Volatile.Write(ref _headStarted, true);
        Schedule(_session.Options.HeaderTimeout);
    }

    /// <summary>The head's request was dispatched (under the protocol's lock, with its answer queued).</summary>
    public void EndHeadLocked() => Volatile.Write(ref _headStarted, false);

    /// <summary>A head ended: its body, if any, runs on the minimum data rate (or the idle clock when that is off).</summary>
    public void StartBody(bool hasBody)
    {
        Volatile.Write(ref _awaitingResponse, false);
        if (!hasBody)
        {
            Cancel();
            return;
        }
        Volatile.Write(ref _bodyStart, Wheel.Now);
        Interlocked.Exchange(ref _bodyBytes, 0);
        // For a pause while the body runs (see Expired): the client must keep taking answers.
        Volatile.Write(ref _idleSince, Wheel.Now);
        Volatile.Write(ref _sentAtArm, _session.BytesSent);
        Volatile.Write(ref _readingBody, true);
        var options = _session.Options;
        Schedule(options.MinRequestBodyDataRate > 0 ? options.MinRequestBodyDataRateGracePeriod : options.KeepAliveTimeout);
    }

    /// <summary>Bytes consumed by the parser: counted toward the body's rate while a body arrives.</summary>
    public void CountBody(int consumed)
    {
        if (Volatile.Read(ref _readingBody))
            Interlocked.Add(ref _bodyBytes, consumed);
    }

    /// <summary>The body ended (the request is complete).</summary>
    public void EndBody() => Volatile.Write(ref _readingBody, false);

    protected override void Expired()
    {
        if (Volatile.Read(ref _awaitingResponse))
        {
            _protocol.ResponseTimedOut();
            return;
        }
        var options = _session.Options;
        if (Volatile.Read(ref _readingBody) && options.MinRequestBodyDataRate > 0)
        {
            var now = Wheel.Now;
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
                    Schedule(options.MinRequestBodyDataRateGracePeriod);
                    return;
                }
                _session.Disconnect();
                return;
            }
            // The rate over the last window (one grace period), not since the head as Kestrel averages: a body that
            // stops after 15 MiB would otherwise pass for hours. A stop is caught within two windows.
            var elapsed = now - Volatile.Read(ref _bodyStart);
            if (Interlocked.Exchange(ref _bodyBytes, 0) >= options.MinRequestBodyDataRate * elapsed / 1000)
            {
                Volatile.Write(ref _bodyStart, now);
                Schedule(options.MinRequestBodyDataRateGracePeriod);
                return;
            }
        }
        else if (!Volatile.Read(ref _readingBody) && !Volatile.Read(ref _headStarted))
        {
            // Idle or an answer owed: an answer still going out is no idleness.
            var left = (long)options.KeepAliveTimeout.TotalMilliseconds - (Wheel.Now - Volatile.Read(ref _idleSince));
            if (left > 0)
            {
                // A clock of another phase expired late, after this one was armed: the idle clock has time left.
                Schedule(TimeSpan.FromMilliseconds(left));
                return;
            }
            if (_session.BytesSent != Volatile.Read(ref _sentAtArm) && (_protocol.IsAnswerOwed || _session.BytesPending > 0))
            {
                StartIdle();
                return;
            }
        }
        _protocol.TimedOut();
    }
}
