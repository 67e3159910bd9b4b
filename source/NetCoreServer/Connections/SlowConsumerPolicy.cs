namespace NetCoreServer;

/// <summary>What a server's <c>Multicast</c> does with a session whose send limit the message would pass (a peer that does not read).</summary>
public enum SlowConsumerPolicy
{
    /// <summary>
    /// The default: the session skips the message and stays connected (NetCoreServer's behaviour): it misses that message, so a framed
    /// protocol must be able to tell. Reported once per episode through the session's <c>OnSlowConsumer</c> (and its
    /// <c>OnError(NoBufferSpaceAvailable)</c> only if its <c>OptionSendBufferLimit</c> was set), counted by the server.
    /// </summary>
    Skip = 0,

    /// <summary>
    /// The session is closed at once with <see cref="DisconnectReason.SlowConsumer"/>, dropping what it had queued: a
    /// peer that keeps up never sees a gap, and one that does not is told by the closed connection.
    /// </summary>
    Disconnect = 1,
}
