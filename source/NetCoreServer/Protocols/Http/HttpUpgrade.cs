namespace NetCoreServer.Protocols.Http;

/// <summary>What a session did with a request offered to a protocol upgrade (<see cref="IHttpServerSessionHost.Upgrade"/>).</summary>
internal enum HttpUpgrade
{
    /// <summary>Not an upgrade: the request goes to the request hooks as usual.</summary>
    None,

    /// <summary>
    /// The connection switched protocols: the answer (101) is sent and another protocol sits in the connection's slot.
    /// HTTP stops reading; the bytes after this request go to the new protocol.
    /// </summary>
    Switched,

    /// <summary>An upgrade that was refused: the refusal is sent and the connection closes; nothing more is read.</summary>
    Refused,
}
