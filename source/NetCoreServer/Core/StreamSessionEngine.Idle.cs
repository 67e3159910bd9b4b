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
    /// <summary>Starts watching for idleness (with the receive loop: only received bytes count as activity).</summary>
    private void StartIdleTimer()
    {
        if (Options.IdleTimeout <= TimeSpan.Zero)
            return;
        lock (this)
        {
            if (Closed)
                return;
            // Only this thread (the receive loop's) writes it from now on, until the sweep reads it.
            Side.LastReceived = Environment.TickCount64;
            IdleWatched = true;
        }
        IdleSweep.Watch(this);
    }

    /// <summary>Notes activity: bytes were received.</summary>
    private void Received()
    {
        if (IdleWatched)
            Volatile.Write(ref _side!.LastReceived, Environment.TickCount64);
    }

    /// <summary>Called by the sweep: disconnects when nothing was received for the timeout.</summary>
    public void CheckIdle(long now)
    {
        var timeout = Options.IdleTimeout;
        // Watched, so the side state exists (made before the sweep was given this engine).
        var side = Volatile.Read(ref _side);
        if (Closed || timeout <= TimeSpan.Zero || side == null)
            return;
        // A session that stopped reading because its peer does not read what it is sent is not idle.
        if (ReadPaused || Volatile.Read(ref _receiveHeld))
        {
            Volatile.Write(ref side.LastReceived, now);
            return;
        }
        if (now - Volatile.Read(ref side.LastReceived) < (long)timeout.TotalMilliseconds)
            return;
        // What was accepted is still delivered, but the peer's own end of stream is not waited for: a peer that
        // went silent is not expected to answer, and lingering would hold its descriptor for the disconnect timeout.
        Disconnect(DisconnectReason.Timeout, linger: false);
    }

    /// <summary>Stops watching (the connection closed).</summary>
    private void StopIdleWatch()
    {
        if (IdleWatched)
            IdleSweep.Forget(this);
    }
}
