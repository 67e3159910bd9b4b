using System;

namespace NetCoreServer;

/// <summary>
/// Carries a server's multicasts beyond it, e.g. to the other nodes of a cluster (the NetCoreServer.Redis backplane).
/// Set as <see cref="StreamServer.MulticastRelay"/>; a server without one pays a null check per multicast. A relay
/// delivers what it receives with <see cref="StreamServer.MulticastRelayed"/> (the server type's rule for bytes from
/// outside the process), which does not call it again.
/// </summary>
public interface IMulticastRelay
{
    /// <summary>
    /// Called after a multicast has been queued on this server's sessions (never for <see cref="StreamServer.MulticastLocal"/>,
    /// nor for WebSocket pings and close frames), on the thread that called it. Must not block: the caller may be a
    /// receive hook. <paramref name="payload"/> is valid only during the call; copy what is kept.
    /// </summary>
    /// <param name="kind">Raw bytes, or the payload of a WebSocket text or binary message.</param>
    /// <param name="payload">The bytes (not empty).</param>
    void OnMulticast(MulticastKind kind, ReadOnlySpan<byte> payload);

    /// <summary>
    /// Called once when a session of the server has gone (after its <c>OnDisconnected</c>), so per-session state such
    /// as group membership can be dropped. On the thread that finished the session; must not block.
    /// </summary>
    /// <param name="session">The session that has gone.</param>
    void OnSessionClosed(StreamSession session);
}
