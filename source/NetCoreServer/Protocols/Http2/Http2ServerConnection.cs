using System;
using System.Security.Authentication;
using System.Threading;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The server side of HTTP/2 on one connection (RFC 9113), in the protocol slot once the client preface arrived: it reads
/// frames with <see cref="Http2FrameReader"/>, keeps the streams (<see cref="Http2StreamTable"/>), decodes requests into
/// <see cref="HttpRequest"/> objects (<see cref="Http2RequestBuilder"/>) and hands whole ones to the hooks
/// (<see cref="Http2Dispatcher"/>); answers go out through <see cref="Http2Answers"/> and <see cref="Http2Output"/>.
/// Errors get the RFC's code: a connection error is GOAWAY then a close, a stream error RST_STREAM. The limits
/// (streams, header list, body, floods, idle) are in docs/design/http2.md.
/// </summary>
internal sealed class Http2ServerConnection : IStreamProtocol
{
    private readonly IHttpServerSessionHost _session;
    private readonly HttpOutbox _outbox;
    private readonly Http2StreamTable _streams = new();
    private readonly Http2Output _output;
    private readonly Http2Dispatcher _dispatcher;
    private readonly Http2FrameReader _reader = new(expectPreface: true);
    private readonly Http2FloodGuard _guard;
    private readonly CallbackTimer _idle;
    private readonly CallbackTimer _settingsAck;
    private readonly Http2RequestReceiver _requests;

    private volatile bool _ended;
    private long _lastActive;

    public Http2ServerConnection(IHttpServerSessionHost session, HttpOutbox outbox)
    {
        _session = session;
        _outbox = outbox;
        _output = new Http2Output(_streams, outbox, session);
        _dispatcher = new Http2Dispatcher(_streams, _output, session);
        Answers = new Http2Answers(_streams, _output, _dispatcher, session);
        _dispatcher.AnswerThrough(Answers, Reset);
        _guard = new Http2FloodGuard(session.Timers);
        _requests = new Http2RequestReceiver(session, _streams, _output, _dispatcher, _guard, this);
        _idle = new CallbackTimer(session.Timers, static c => ((Http2ServerConnection)c).IdleExpired(), this);
        _settingsAck = new CallbackTimer(session.Timers, static c => ((Http2ServerConnection)c).SettingsNotAcknowledged(), this);
    }

    public Http2Answers Answers { get; }

    public Http2Dispatcher Dispatcher => _dispatcher;

    /// <summary>The connection chose HTTP/2: this side's SETTINGS and the larger connection window go first.</summary>
    public void Start()
    {
        lock (_streams.Sync)
        {
            _output.SettingsLocked([
                (Http2SettingId.MaxConcurrentStreams, (uint)_session.Options.Http2MaxConcurrentStreams),
                (Http2SettingId.InitialWindowSize, Http2Limits.StreamWindow),
                (Http2SettingId.MaxHeaderListSize, (uint)_session.Options.MaxHeadSize),
            ]);
            _output.WindowUpdateLocked(0, Http2Limits.ConnectionWindow - Http2Settings.DefaultInitialWindowSize);
        }
        _output.Flush();
        // RFC 9113 §9.2: over TLS, 1.2 or later, and over 1.2 no suite of the block list; the SETTINGS went first (§3.4).
        var tls = _session.Tls;
        if (tls.Protocol != SslProtocols.None && !Http2TlsRequirements.IsAdequate(tls.Protocol, tls.CipherSuite))
        {
            Fail(Http2ErrorCode.InadequateSecurity, $"HTTP/2 does not run over {tls.Protocol} with {tls.CipherSuite}");
            return;
        }
        ArmIdle();
        // RFC 9113 §6.5.3: the client acknowledges this side's only SETTINGS (sent here) within the timeout.
        var ackTimeout = _session.Options.Http2SettingsTimeout;
        if (ackTimeout != Timeout.InfiniteTimeSpan)
            _settingsAck.Schedule(ackTimeout);
    }

    /// <summary>The session ended: streams, buffers and the clock go.</summary>
    public void Stop()
    {
        _ended = true;
        lock (_streams.Sync)
        {
            _dispatcher.StopLocked();
            _streams.ClearLocked();
            _output.CloseLocked();
        }
        _idle.Close();
        _settingsAck.Close();
        _requests.Stop();
    }

    public int Received(ReadOnlySpan<byte> data)
    {
        var total = 0;
        while (!_ended)
        {
            var status = _reader.Read(data[total..], out var frame, out var consumed);
            total += consumed;
            switch (status)
            {
                case Http2ReadStatus.NeedMoreData:
                    _output.Flush();
                    return total;
                case Http2ReadStatus.ConnectionError:
                    Fail(_reader.ErrorCode, _reader.ErrorReason ?? "");
                    break;
                case Http2ReadStatus.StreamError when frame.Type == Http2FrameType.Headers:
                    _requests.OnHeaders(frame, _reader.ErrorCode);
                    break;
                case Http2ReadStatus.StreamError:
                    Reset(_reader.ErrorStreamId, _reader.ErrorCode);
                    break;
                default:
                    if (frame.Type is not (Http2FrameType.Ping or Http2FrameType.Settings))
                        Volatile.Write(ref _lastActive, _idle.Wheel.Now);
                    OnFrame(frame);
                    break;
            }
        }
        return data.Length;
    }

    private void OnFrame(in Http2Frame frame)
    {
        switch (frame.Type)
        {
            case Http2FrameType.Settings when !frame.Ack:
                OnSettings(frame);
                return;
            case Http2FrameType.Settings:
                _settingsAck.Close();
                return;
            case Http2FrameType.Ping when !frame.Ack:
                if (!_guard.Control())
                {
                    Fail(Http2ErrorCode.EnhanceYourCalm, "too many PING frames");
                    return;
                }
                lock (_streams.Sync)
                    _output.PingAckLocked(frame.Payload);
                return;
            case Http2FrameType.WindowUpdate:
                OnWindowUpdate(frame);
                return;
            case Http2FrameType.Headers:
                _requests.OnHeaders(frame, Http2ErrorCode.NoError);
                return;
            case Http2FrameType.Continuation:
                _requests.OnContinuation(frame);
                return;
            case Http2FrameType.Data:
                _requests.OnData(frame);
                return;
            case Http2FrameType.RstStream:
                OnReset(frame);
                return;
            case Http2FrameType.GoAway:
                // The client sends no new streams; those under way finish, then it closes the connection itself.
                return;
        }
        // PING acknowledgements, PRIORITY (accepted and ignored: RFC 9113 §5.3.2).
    }

    private void OnSettings(in Http2Frame frame)
    {
        if (!_guard.Control())
        {
            Fail(Http2ErrorCode.EnhanceYourCalm, "too many SETTINGS frames");
            return;
        }
        bool applied;
        lock (_streams.Sync)
        {
            applied = _output.ApplySettingsLocked(frame.Payload);
            if (applied)
            {
                _output.SettingsAckLocked();
                _output.PumpLocked();
            }
        }
        if (!applied)
            Fail(Http2ErrorCode.FlowControlError, "SETTINGS_INITIAL_WINDOW_SIZE takes a window past 2^31-1");
    }

    private void OnWindowUpdate(in Http2Frame frame)
    {
        if (!_guard.WindowUpdate())
        {
            Fail(Http2ErrorCode.EnhanceYourCalm, "too many WINDOW_UPDATE frames");
            return;
        }
        var connectionError = (string?)null;
        var streamError = 0;
        lock (_streams.Sync)
        {
            if (frame.StreamId == 0)
            {
                if (!_output.IncreaseLocked(frame.WindowIncrement))
                    connectionError = "the connection window passed 2^31-1";
            }
            else if (_streams.FindLocked(frame.StreamId) is { } stream)
            {
                if (!stream.SendWindow.TryIncrease(frame.WindowIncrement))
                    streamError = stream.Id;
            }
            else if (frame.StreamId > _streams.HighestOpened)
            {
                connectionError = "WINDOW_UPDATE on an idle stream";
            }
            _output.PumpLocked();
        }
        if (connectionError != null)
            Fail(connectionError.StartsWith("the", StringComparison.Ordinal) ? Http2ErrorCode.FlowControlError : Http2ErrorCode.ProtocolError, connectionError);
        else if (streamError != 0)
            Reset(streamError, Http2ErrorCode.FlowControlError);
    }

    private void OnReset(in Http2Frame frame)
    {
        Http2Stream? stream;
        bool idle;
        lock (_streams.Sync)
        {
            stream = _streams.FindLocked(frame.StreamId);
            idle = stream == null && frame.StreamId > _streams.HighestOpened;
            if (stream != null)
            {
                stream.WasReset = true;
                _output.ForgetLocked(stream);
                _streams.CloseLocked(stream);
            }
        }
        if (idle)
        {
            Fail(Http2ErrorCode.ProtocolError, "RST_STREAM on an idle stream");
            return;
        }
        if (stream == null)
            return;
        if (!_guard.Reset())
        {
            Fail(Http2ErrorCode.EnhanceYourCalm, "too many streams reset");
            return;
        }
        _dispatcher.Answered();
        if (DrainingSince >= 0)
            CloseIfDrained();
    }

    /// <summary>A stream error: RST_STREAM, and the stream is closed.</summary>
    public void Reset(int id, Http2ErrorCode code)
    {
        bool handedOver;
        lock (_streams.Sync)
        {
            _output.ResetLocked(id, code);
            var stream = _streams.FindLocked(id);
            // Owed, or with its hooks under way (a body still arriving): the hooks go on without it.
            handedOver = stream != null && stream.Number != 0;
            if (stream != null)
            {
                stream.WasReset = true;
                _output.ForgetLocked(stream);
                _streams.CloseLocked(stream);
            }
        }
        if (handedOver)
            _dispatcher.Answered();
    }

    /// <summary>A connection error: GOAWAY with its code, then the connection closes once that is out.</summary>
    public void Fail(Http2ErrorCode code, string reason)
    {
        if (_ended)
            return;
        _ended = true;
        lock (_streams.Sync)
        {
            _output.GoAwayLocked(_streams.HighestOpened, code, reason);
            _dispatcher.StopLocked();
        }
        _output.Flush();
        _outbox.CloseWhenQueued();
    }

    /// <summary>Bytes went out: what waited for the send queue's room goes next.</summary>
    public void Sent()
    {
        _outbox.Pump();
        lock (_streams.Sync)
            _output.PumpLocked();
        _output.Flush();
        // Every stream ends with a frame sent (END_STREAM or RST_STREAM), so a drain ends here; or on a client's reset.
        if (DrainingSince >= 0)
            CloseIfDrained();
    }

    /// <summary>
    /// The server drains (<c>StopAsync</c>): GOAWAY NO_ERROR names the last stream taken, later ones are refused, the
    /// streams under way finish (their responses go out, flow control and all), and the connection closes once none
    /// is left.
    /// </summary>
    public bool BeginDrain()
    {
        lock (_streams.Sync)
        {
            _output.GoAwayLocked(_streams.HighestOpened, Http2ErrorCode.NoError, "server shutting down", final: false);
            DrainingSince = _streams.HighestOpened;
        }
        _output.Flush();
        CloseIfDrained();
        return true;
    }

    /// <summary>The last stream taken when a drain began (later ones are refused), or -1 while not draining.</summary>
    public int DrainingSince { get; private set; } = -1;

    /// <summary>A draining connection with no stream left closes once what is queued has gone.</summary>
    private void CloseIfDrained()
    {
        lock (_streams.Sync)
        {
            if (DrainingSince < 0 || _streams.CountLocked > 0 || _ended)
                return;
            _ended = true;
            _dispatcher.StopLocked();
        }
        _outbox.CloseWhenQueued();
    }

    private void SettingsNotAcknowledged()
    {
        if (!_ended)
            Fail(Http2ErrorCode.SettingsTimeout, "SETTINGS not acknowledged in time");
    }

    private void ArmIdle()
    {
        Volatile.Write(ref _lastActive, _idle.Wheel.Now);
        _idle.Schedule(_session.Options.KeepAliveTimeout);
    }

    /// <summary>
    /// The keep-alive clock ran out: a connection on which the client sent nothing but PING and SETTINGS, and this side
    /// sent no response HEADERS or DATA, for <see cref="HttpOptions.KeepAliveTimeout"/> (idle, a hook that never answers,
    /// or a peer that never opens its window) gets GOAWAY NO_ERROR and closes; otherwise the clock runs again from the
    /// last activity.
    /// </summary>
    private void IdleExpired()
    {
        if (_ended)
            return;
        var timeout = _session.Options.KeepAliveTimeout;
        var last = Math.Max(Volatile.Read(ref _lastActive), _output.LastSent);
        var quietFor = TimeSpan.FromMilliseconds(_idle.Wheel.Now - last);
        if (quietFor < timeout)
        {
            _idle.Schedule(timeout - quietFor);
            return;
        }
        Fail(Http2ErrorCode.NoError, "idle");
    }
}
