using System;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The budgets of the frames a client can send in a loop to make the server work for nothing (RFC 9113 §10.5): streams
/// opened and reset (rapid reset, CVE-2023-44487), SETTINGS and PING (each answered with an ACK), WINDOW_UPDATE, and
/// DATA frames that carry nothing. Each is a token bucket on the connection's timer wheel clock (a fake clock in the
/// tests): a burst, then a steady rate (<see cref="Http2Limits"/>). A spent budget is GOAWAY ENHANCE_YOUR_CALM. Receive
/// thread only.
/// </summary>
internal sealed class Http2FloodGuard
{
    private readonly TimerWheel _clock;
    private Bucket _resets = new(Http2Limits.ResetBurst, Http2Limits.ResetsPerSecond);
    private Bucket _control = new(Http2Limits.ControlBurst, Http2Limits.ControlPerSecond);
    private Bucket _windowUpdates = new(Http2Limits.WindowUpdateBurst, Http2Limits.WindowUpdatesPerSecond);
    private Bucket _emptyData = new(Http2Limits.EmptyDataBurst, Http2Limits.EmptyDataPerSecond);

    public Http2FloodGuard(TimerWheel clock)
    {
        _clock = clock;
        var now = clock.Now;
        _resets.Start(now);
        _control.Start(now);
        _windowUpdates.Start(now);
        _emptyData.Start(now);
    }

    /// <summary>The client reset a stream it opened.</summary>
    public bool Reset() => _resets.TryTake(_clock.Now);

    /// <summary>A SETTINGS or PING to acknowledge.</summary>
    public bool Control() => _control.TryTake(_clock.Now);

    public bool WindowUpdate() => _windowUpdates.TryTake(_clock.Now);

    /// <summary>A DATA frame with no data and no END_STREAM.</summary>
    public bool EmptyData() => _emptyData.TryTake(_clock.Now);

    private struct Bucket(int burst, int perSecond)
    {
        private double _tokens = burst;
        private long _at;

        public void Start(long now) => _at = now;

        public bool TryTake(long now)
        {
            if (now > _at)
            {
                _tokens = Math.Min(burst, _tokens + (now - _at) * perSecond / 1000.0);
                _at = now;
            }
            if (_tokens < 1)
                return false;
            _tokens--;
            return true;
        }
    }
}
