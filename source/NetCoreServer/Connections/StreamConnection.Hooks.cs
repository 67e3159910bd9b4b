using System;
using System.Diagnostics;
using System.Net.Sockets;

namespace NetCoreServer;

public abstract partial class StreamConnection
{
    /// <summary>
    /// Called before the connection goes live. Runs on the accepting (server) or connecting (client) thread.
    /// Limits such as <see cref="OptionSendBufferLimit"/> set here apply to this connection.
    /// </summary>
    protected virtual void OnConnecting()
    {
    }

    /// <summary>
    /// Called once when the connection is live, before any <see cref="OnReceived"/>. Runs on the accepting
    /// (server) or connecting (client) thread. Sending from here is allowed.
    /// </summary>
    protected virtual void OnConnected()
    {
    }

    /// <summary>
    /// Called once when a disconnect starts (local, by the peer, or by an error), on the thread that started it.
    /// <see cref="IsConnected"/> is already false. During a graceful disconnect (Disconnect, the peer ending its
    /// stream, a server Stop) this hook may still Send/SendAsync, as in NetCoreServer: a goodbye goes out after what
    /// was queued, before the sending side shuts down. After the hook, and on an abort (error), sends are refused.
    /// </summary>
    protected virtual void OnDisconnecting()
    {
    }

    /// <summary>
    /// Called once, last, after the socket is closed and no other hook of this connection can run any more.
    /// <see cref="DisconnectReason"/> says why. Runs on a thread-pool thread (or the thread that closed the socket).
    /// </summary>
    protected virtual void OnDisconnected()
    {
    }

    /// <summary>
    /// Called for each chunk of received data, on a thread-pool I/O thread (the loop's thread with event loops); calls
    /// for one connection never overlap. The buffer is pooled and valid only until this returns: copy what you keep.
    /// </summary>
    /// <remarks>
    /// On HTTP and WebSocket connections, as in NetCoreServer, this is where the protocol parses: an override sees
    /// every raw chunk, its <c>base.OnReceived</c> parses it (raising OnReceivedRequest, OnWsReceived...), and one that
    /// does not call base turns parsing off. Without an override the bytes go to the parser directly. The next read
    /// starts when this returns, so a slow handler slows the peer (TCP backpressure) instead of growing memory.
    /// </remarks>
    /// <param name="buffer">Pooled buffer holding the data; valid only during the call.</param>
    /// <param name="offset">Offset of the data in <paramref name="buffer"/>.</param>
    /// <param name="size">Number of bytes received.</param>
    protected virtual void OnReceived(byte[] buffer, long offset, long size) => FeedProtocol(buffer, offset, size);

    /// <summary>
    /// Called for each whole message when <see cref="Framing"/> is set, in order, on the receive thread, however TCP split
    /// or joined them. The span is valid during the call only (it points into the receive buffer): copy what you keep.
    /// </summary>
    /// <param name="message">The message, without its length prefix or delimiter; valid only during the call.</param>
    protected virtual void OnReceivedMessage(ReadOnlySpan<byte> message)
    {
    }

    /// <summary>
    /// Called after each batch of queued data is handed to the socket, on the thread that sent it (a thread-pool
    /// I/O thread, or inline in <c>SendAsync</c>).
    /// </summary>
    /// <param name="sent">Bytes sent by this batch.</param>
    /// <param name="pending">Bytes still queued or in flight.</param>
    protected virtual void OnSent(long sent, long pending)
    {
    }

    /// <summary>
    /// Called with false when the bytes waiting to be sent pass <see cref="OptionSendHighWatermark"/> (a producer should
    /// hold back) and with true when they fall to <see cref="OptionSendLowWatermark"/>. Reports alternate, one at a time,
    /// on the thread that caused the change; <see cref="IsWritable"/> is the current state.
    /// </summary>
    /// <param name="writable">The new state.</param>
    protected virtual void OnWritabilityChanged(bool writable)
    {
    }

    /// <summary>
    /// Called when the send queue becomes empty, on the thread that sent the last batch (a thread-pool I/O thread, or
    /// inline in <c>SendAsync</c>); also once when the connection becomes ready, after OnConnected (OnHandshaked for TLS).
    /// </summary>
    /// <remarks>A good place to queue more.</remarks>
    protected virtual void OnEmpty()
    {
    }

    /// <summary>
    /// Called for socket errors worth reporting (not ordinary endings: reset, abort, refused, shutdown), on the thread
    /// whose operation failed (an I/O thread, or inline in your call).
    /// </summary>
    /// <remarks>
    /// <see cref="SocketError.NoBufferSpaceAvailable"/>: a <c>SendAsync</c> was refused by
    /// <see cref="OptionSendBufferLimit"/>, or a server's <c>Multicast</c> was when that limit was set (otherwise a
    /// session reports it through <c>OnSlowConsumer</c> only); the connection stays open, and it is reported once per
    /// episode (again only after the queue fell to <see cref="OptionSendLowWatermark"/>).
    /// </remarks>
    /// <param name="error">The socket error.</param>
    protected virtual void OnError(SocketError error)
    {
    }

    /// <summary>
    /// Called on the thread of the hook that threw, after it threw. The connection is then closed at once with
    /// <see cref="NetCoreServer.DisconnectReason.HandlerException"/>. The default writes the exception to
    /// <see cref="Trace"/>; override to log it your way.
    /// </summary>
    /// <param name="exception">What the hook threw.</param>
    protected virtual void OnHandlerException(Exception exception)
    {
        Trace.TraceError("NetCoreServer: a hook of {0} {1} threw: {2}", GetType().Name, Id, exception);
    }
}
