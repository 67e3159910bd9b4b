namespace NetCoreServer;

/// <summary>Why a session or client connection ended. The first reason recorded wins.</summary>
public enum DisconnectReason
{
    /// <summary>The connection has not ended.</summary>
    None = 0,

    /// <summary><c>Disconnect</c> was called on this side.</summary>
    Local = 1,

    /// <summary>The peer closed the connection gracefully (end of stream).</summary>
    PeerClosed = 2,

    /// <summary>A socket error ended the connection; see the <c>OnError</c> hook.</summary>
    Error = 3,

    /// <summary>The server was stopped.</summary>
    ServerStopped = 4,

    /// <summary>A user hook threw; the exception went to <c>OnHandlerException</c>.</summary>
    HandlerException = 5,

    /// <summary>A timeout ended the connection: the idle timeout, a protocol's timeout, or queued data not delivered before the disconnect timeout.</summary>
    Timeout = 6,

    /// <summary>The TLS handshake failed or timed out; the error went to <c>OnError</c>.</summary>
    HandshakeFailed = 7,

    /// <summary>The peer broke the protocol spoken on the connection (a malformed or oversized message).</summary>
    ProtocolError = 8,

    /// <summary>
    /// The peer did not read what a server's <c>Multicast</c> sent it until the send limit was reached, and the server's
    /// <c>OptionSlowConsumerPolicy</c> is <see cref="SlowConsumerPolicy.Disconnect"/>: the connection was closed at once.
    /// </summary>
    SlowConsumer = 9,
}
