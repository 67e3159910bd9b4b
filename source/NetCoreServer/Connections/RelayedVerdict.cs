namespace NetCoreServer;

/// <summary>
/// What a server did with bytes a relay brought from outside the process (<see cref="StreamServer.MulticastRelayed"/>,
/// <see cref="StreamServer.SendRelayed"/>). Each server type has one rule: raw bytes are the natural payload of TCP, TLS
/// and Unix-socket servers; a WebSocket server writes only messages it framed itself; an HTTP server takes nothing.
/// </summary>
public enum RelayedVerdict
{
    /// <summary>The payload passed the server's rule and was queued on whichever sessions it was for (maybe none).</summary>
    Accepted = 0,

    /// <summary>
    /// A kind this server never takes from a relay: an unknown <see cref="MulticastKind"/> value, or any kind on an
    /// HTTP server that is not a WebSocket server (bytes written into an HTTP stream would be read as a response).
    /// </summary>
    RefusedKind = 1,

    /// <summary>A <see cref="MulticastKind.Text"/> payload, or a text message inside raw WebSocket frames, that is not valid UTF-8.</summary>
    RefusedText = 2,

    /// <summary>
    /// <see cref="MulticastKind.Raw"/> on a WebSocket server whose bytes are not whole, valid, unmasked data frames
    /// without extension bits: a close, ping or pong frame, a cut frame, an unfinished message, a message over the
    /// server's <c>Ws.MaxMessageSize</c>.
    /// </summary>
    RefusedFrames = 3,
}
