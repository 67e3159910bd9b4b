using System;
using NetCoreServer.Core;

namespace NetCoreServer.WebSockets;

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

    /// <summary>Queues a frame of one or two pieces (copied) as one unit; false when refused.</summary>
    bool SendFrame(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body);

    /// <summary>How many more bytes the send limit lets the engine accept now (<see cref="long.MaxValue"/> without a limit).</summary>
    long SendRoom();

    /// <summary>
    /// For a blocking send: waits until everything queued so far is handed to the socket (not from the send loop's own
    /// hooks, which that wait would block); false when the connection ended first.
    /// </summary>
    bool WaitSent();

    /// <summary>Starts a graceful close of the TCP connection (what is queued, the close frame included, goes out first).</summary>
    void Disconnect(DisconnectReason reason);

    /// <summary>Closes the TCP connection at once, dropping what is queued (a peer that did not answer in time).</summary>
    void Abort(DisconnectReason reason);

    /// <summary>The wheel that times the keep-alive and close timeouts: the server's, or the shared one of clients.</summary>
    TimerWheel Timers => TimerWheel.For((this as IStreamSessionHost)?.EngineOptions.Owner);
}
