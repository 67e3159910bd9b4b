using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// What the framer (<see cref="WsConnection"/>) needs from the session or client it serves: its hooks, an atomic send of
/// one frame, and ending the TCP connection. Implemented once for WsSession, WssSession, WsClient and WssClient.
/// </summary>
internal interface IWsConnectionHost
{
    void RaiseReceived(byte[] buffer, long offset, long size);

    void RaisePing(byte[] buffer, long offset, long size);

    void RaisePong(byte[] buffer, long offset, long size);

    void RaiseClose(byte[] buffer, long offset, long size, int status);

    void RaiseError(string error);

    /// <summary>Queues a frame as one unit, written once into the send queue; false when refused (or the connection is no longer open).</summary>
    bool SendFrame(ref WsQueuedFrame frame);

    /// <summary>
    /// For a blocking send: waits until everything queued so far is handed to the socket (not from the send loop's own
    /// hooks, which that wait would block); false when the connection ended first.
    /// </summary>
    bool WaitSent();

    /// <summary>Starts a graceful close of the TCP connection (what is queued, the close frame included, goes out first).</summary>
    void Disconnect(DisconnectReason reason);

    /// <summary>Closes the TCP connection at once, dropping what is queued (a peer that did not answer in time).</summary>
    void Abort(DisconnectReason reason);

    /// <summary>The metrics of a server session's server; null for a client (or before the server started).</summary>
    Diagnostics.ServerMetrics? Metrics => ((this as IStreamSessionHost)?.EngineOptions.Owner as Diagnostics.IMetricsOwner)?.Metrics;

    /// <summary>The wheel that times the keep-alive and close timeouts: the server's, or the shared one of clients.</summary>
    TimerWheel Timers => (this as IStreamSessionHost)?.EngineOptions.Timers ?? TimerWheel.Shared;
}
