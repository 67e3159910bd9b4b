using System;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// The idle timeout: a connection that receives nothing for <see cref="EngineOptions.IdleTimeout"/> is disconnected
/// with <see cref="DisconnectReason.Timeout"/>. Watched by the shared <see cref="IdleSweep"/> from the start of the
/// receive loop until the close; a read costs one memory write.
/// </summary>
internal sealed partial class StreamSessionEngine
{
    private long _lastReceived;
    private bool _idleWatched;

    /// <summary>Starts watching for idleness (with the receive loop: only received bytes count as activity).</summary>
    private void StartIdleTimer()
    {
        if (_options.IdleTimeout <= TimeSpan.Zero)
            return;
        Volatile.Write(ref _lastReceived, Environment.TickCount64);
        lock (this)
        {
            if (_closed)
                return;
            _idleWatched = true;
        }
        IdleSweep.Watch(this);
    }

    /// <summary>Notes activity: bytes were received.</summary>
    private void Received() => Volatile.Write(ref _lastReceived, Environment.TickCount64);

    /// <summary>Called by the sweep: disconnects when nothing was received for the timeout.</summary>
    public void CheckIdle(long now)
    {
        var timeout = _options.IdleTimeout;
        if (_closed || timeout <= TimeSpan.Zero)
            return;
        // A session that stopped reading because its peer does not read what it is sent is not idle.
        if (ReadPaused)
        {
            Volatile.Write(ref _lastReceived, now);
            return;
        }
        if (now - Volatile.Read(ref _lastReceived) < (long)timeout.TotalMilliseconds)
            return;
        // What was accepted is still delivered, but the peer's own end of stream is not waited for: a peer that
        // went silent is not expected to answer, and lingering would hold its descriptor for the disconnect timeout.
        Disconnect(DisconnectReason.Timeout, linger: false);
    }

    /// <summary>Stops watching (the connection closed).</summary>
    private void StopIdleWatch()
    {
        if (Volatile.Read(ref _idleWatched))
            IdleSweep.Forget(this);
    }
}
