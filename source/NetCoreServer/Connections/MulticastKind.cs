namespace NetCoreServer;

/// <summary>What a multicast payload is, so a <see cref="IMulticastRelay"/> can deliver it the same way on another server.</summary>
public enum MulticastKind
{
    /// <summary>Bytes queued as they are (<c>Multicast</c>, <c>MulticastMessage</c> after framing); on a WebSocket server, whole frames.</summary>
    Raw = 0,

    /// <summary>The payload of one WebSocket text message (<c>MulticastText</c>); a server without WebSocket sends it raw.</summary>
    Text = 1,

    /// <summary>The payload of one WebSocket binary message (<c>MulticastBinary</c>); a server without WebSocket sends it raw.</summary>
    Binary = 2,
}
