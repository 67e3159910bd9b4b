using System.Net.Sockets;

namespace NetCoreServer;

/// <summary>
/// The WebSocket hooks, as NetCoreServer names them. <see cref="WsSession"/>, <see cref="WssSession"/>,
/// <see cref="WsClient"/> and <see cref="WssClient"/> implement every one as a public virtual method (override those);
/// <see cref="WsServer"/>, <see cref="WssServer"/> and <see cref="WebSocket"/> use the empty defaults here. A client
/// raises the overloads taking a request (connecting) and a response (connected); a server session the others. Hooks
/// run on the connection's receive thread unless a member says otherwise; <see cref="WebSocket"/> raises them on the
/// thread calling it.
/// </summary>
public interface IWebSocket
{
    /// <summary>Client: fill the upgrade request before it is sent (called on the connecting thread, after TLS for wss).</summary>
    /// <param name="request">The upgrade request; already holds a valid default one.</param>
    void OnWsConnecting(HttpRequest request)
    {
    }

    /// <summary>Client: the server accepted the upgrade (called on the receive thread).</summary>
    /// <param name="response">The server's 101 response; valid during the call.</param>
    void OnWsConnected(HttpResponse response)
    {
    }

    /// <summary>Server: inspect an upgrade request and the prepared 101 answer; false refuses the upgrade.</summary>
    /// <param name="request">The upgrade request; valid during the call.</param>
    /// <param name="response">The prepared 101 answer (or set another status to refuse with).</param>
    /// <returns>True to accept.</returns>
    bool OnWsConnecting(HttpRequest request, HttpResponse response) => true;

    /// <summary>Server: the 101 answer is on its way and frames may be sent.</summary>
    /// <param name="request">The upgrade request; valid during the call.</param>
    void OnWsConnected(HttpRequest request)
    {
    }

    /// <summary>An upgraded connection starts disconnecting, on the thread that started the disconnect.</summary>
    void OnWsDisconnecting()
    {
    }

    /// <summary>An upgraded connection has disconnected, on the thread that raises OnDisconnected.</summary>
    void OnWsDisconnected()
    {
    }

    /// <summary>A whole text or binary message arrived.</summary>
    /// <param name="buffer">Buffer holding the message (pooled: valid during the call only).</param>
    /// <param name="offset">Offset of the message.</param>
    /// <param name="size">Size of the message.</param>
    void OnWsReceived(byte[] buffer, long offset, long size)
    {
    }

    /// <summary>The peer's close frame arrived.</summary>
    /// <param name="buffer">Buffer holding the UTF-8 reason (valid during the call only).</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason.</param>
    /// <param name="status">The close status; 1005 when the frame carried none.</param>
    void OnWsClose(byte[] buffer, long offset, long size, int status = 1000)
    {
    }

    /// <summary>A ping arrived.</summary>
    /// <param name="buffer">Buffer holding the payload (valid during the call only).</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    void OnWsPing(byte[] buffer, long offset, long size)
    {
    }

    /// <summary>A pong arrived.</summary>
    /// <param name="buffer">Buffer holding the payload (valid during the call only).</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    void OnWsPong(byte[] buffer, long offset, long size)
    {
    }

    /// <summary>The WebSocket protocol failed (bad frame, refused handshake, timeout; a timeout runs on a timer thread).</summary>
    /// <param name="error">What went wrong.</param>
    void OnWsError(string error)
    {
    }

    /// <summary>A socket error on a WebSocket connection.</summary>
    /// <param name="error">The socket error.</param>
    void OnWsError(SocketError error)
    {
    }

    /// <summary>Server: sends the answer to an upgrade request (the 101, or a refusal).</summary>
    /// <param name="response">The answer.</param>
    void SendUpgrade(HttpResponse response)
    {
    }
}
