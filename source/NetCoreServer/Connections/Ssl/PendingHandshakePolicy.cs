namespace NetCoreServer;

/// <summary>What a TLS server does when <c>OptionMaxPendingHandshakes</c> handshakes are already under way and another connection arrives.</summary>
public enum PendingHandshakePolicy
{
    /// <summary>
    /// The default: the oldest pending handshake is dropped (its connection closed, <c>HandshakeFailed</c>) to make room
    /// for the new one. Peers that open connections and never finish their handshake then cannot keep a good client waiting: its
    /// handshake only has to finish before the flood opens the cap's worth of connections after it.
    /// </summary>
    DropOldest = 0,

    /// <summary>
    /// The server stops accepting until a handshake ends: new connections wait in the listen backlog, and the kernel
    /// refuses them beyond it. Gentler on a burst of legitimate clients, but a flood of silent peers holds every client
    /// off until their handshake timeouts expire.
    /// </summary>
    WaitInBacklog = 1,
}
