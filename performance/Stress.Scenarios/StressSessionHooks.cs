using System.Net.Sockets;

namespace NetCoreServer.Stress;

/// <summary>
/// What every stress session does in its hooks, whatever its transport: one per session, holding that session's life
/// (0 new, 1 connected, 2 disconnected) so <see cref="StressCounters"/> can count hook-order faults.
/// </summary>
internal sealed class StressSessionHooks(StressCounters counters)
{
    private int _life;

    /// <summary>OnConnected (OnWsConnected for a WebSocket session).</summary>
    public void Connected(StreamSession session) => counters.OnOpened(session, ref _life);

    /// <summary>OnReceived: echo, or note which client the session serves.</summary>
    public void Received(StreamSession session, byte[] buffer, long offset, long size) => counters.Received(session, buffer, offset, size);

    /// <summary>OnError.</summary>
    public void Error(SocketError error) => counters.OnError(error);

    /// <summary>OnSlowConsumer: a multicast skip episode (no OnError for it: the sessions keep the default send limit).</summary>
    public void SlowConsumer() => counters.OnSlowConsumer();

    /// <summary>OnDisconnected.</summary>
    public void Disconnected(DisconnectReason reason) => counters.OnClosed(ref _life, reason);

    /// <summary>OnDisconnected of a WebSocket session: counted only when the upgrade ran <see cref="Connected"/>.</summary>
    public void DisconnectedIfUpgraded(DisconnectReason reason)
    {
        if (_life != 0)
            Disconnected(reason);
    }
}
