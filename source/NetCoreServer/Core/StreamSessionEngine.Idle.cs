using System;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// The idle timeout: a connection that receives nothing for <see cref="EngineOptions.IdleTimeout"/> is disconnected
/// with <see cref="DisconnectReason.Timeout"/>. One timer per connection, armed only when the timeout is set; it is
/// re-armed for the time left rather than reset on every read, so a busy connection costs one memory write per read.
/// </summary>
internal sealed partial class StreamSessionEngine
{
    private long _lastReceived;
    private Timer? _idleTimer;

    /// <summary>Starts watching for idleness (with the receive loop: only received bytes count as activity).</summary>
    private void StartIdleTimer()
    {
        var timeout = _options.IdleTimeout;
        if (timeout <= TimeSpan.Zero)
            return;
        Volatile.Write(ref _lastReceived, Environment.TickCount64);
        var timer = new Timer(static s => ((StreamSessionEngine)s!).OnIdleTick(), this, Timeout.Infinite, Timeout.Infinite);
        lock (_lock)
        {
            if (!_closed)
            {
                _idleTimer = timer;
                timer.Change(timeout, Timeout.InfiniteTimeSpan);
                return;
            }
        }
        timer.Dispose();
    }

    /// <summary>Notes activity: bytes were received.</summary>
    private void Received() => Volatile.Write(ref _lastReceived, Environment.TickCount64);

    private void OnIdleTick()
    {
        var timeout = _options.IdleTimeout;
        if (_closed || timeout <= TimeSpan.Zero)
            return;
        var idle = TimeSpan.FromMilliseconds(Environment.TickCount64 - Volatile.Read(ref _lastReceived));
        // A session that stopped reading because its peer does not read what it is sent is not idle.
        if (ReadPaused)
            idle = TimeSpan.Zero;
        if (idle >= timeout)
        {
            // What was accepted is still delivered, but the peer's own end of stream is not waited for: a peer that
            // went silent is not expected to answer, and lingering would hold its descriptor for the disconnect timeout.
            Disconnect(DisconnectReason.Timeout, linger: false);
            return;
        }
        lock (_lock)
        {
            if (!_closed)
                _idleTimer?.Change(timeout - idle, Timeout.InfiniteTimeSpan);
        }
    }

    private void StopIdleTimerLocked()
    {
        _idleTimer?.Dispose();
        _idleTimer = null;
    }
}
