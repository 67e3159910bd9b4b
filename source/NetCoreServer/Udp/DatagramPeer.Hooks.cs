using System;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer;

public abstract partial class DatagramPeer
{
    /// <summary>
    /// Called for each datagram received. From <see cref="ReceiveAsync"/> it runs on a thread-pool I/O thread (or on the
    /// thread that called ReceiveAsync, when a datagram was already waiting), or with <see cref="OptionReceiveThread"/> on
    /// the socket's receive thread; from a blocking <c>Receive</c>, on its caller. Calls from the receive loop never overlap, and the next receive starts only after this returns. The
    /// buffer is pooled: it is valid only until this method returns, so copy what you keep (SendAsync copies).
    /// </summary>
    /// <param name="endpoint">The sender. Do not modify it: the runtime may reuse it for the sender's next datagram.</param>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram (0 for an empty datagram).</param>
    protected virtual void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
    }

    /// <summary>
    /// Called after each datagram is handed to the socket: for SendAsync on the thread of the send loop (a thread-pool
    /// I/O thread, or inline on the thread that called SendAsync, which with <see cref="OptionReceiveThread"/> is
    /// usually the receive thread), for Send on its caller. Calls from the send loop
    /// never overlap. NetCoreServer's echo pattern calls <see cref="ReceiveAsync"/> from here.
    /// </summary>
    /// <param name="endpoint">Where the datagram went.</param>
    /// <param name="sent">Size of the datagram.</param>
    protected virtual void OnSent(EndPoint endpoint, long sent)
    {
    }

    /// <summary>
    /// Called for socket errors worth reporting, on the thread that met them. Not reported: the socket closing, and
    /// connection resets or refusals, which on UDP are ICMP echoes of earlier sends (receiving simply goes on).
    /// <see cref="SocketError.NoBufferSpaceAvailable"/> means a SendAsync was refused by <see cref="OptionSendBufferLimit"/>;
    /// <see cref="SocketError.MessageSize"/> means a datagram longer than <see cref="OptionReceiveBufferLimit"/> was dropped
    /// (or one too long to send was refused).
    /// </summary>
    /// <param name="error">The socket error.</param>
    protected virtual void OnError(SocketError error)
    {
    }

    /// <summary>
    /// Called when a hook raised by one of this socket's own loops (OnReceived from the receive loop, OnSent from the send
    /// loop, OnError from either) throws, on that loop's thread. The exception never unwinds into the loop or the thread
    /// pool: the socket carries on as if the hook had returned. A hook raised inline by a call you made (a blocking Send
    /// or Receive, a refused SendAsync, a failed Connect) lets its exception reach that call instead, like any method you
    /// invoke, and does not come here. An exception thrown from here is ignored. The default writes the exception to
    /// <see cref="Trace"/>.
    /// </summary>
    /// <param name="exception">What the hook threw.</param>
    protected virtual void OnHandlerException(Exception exception)
    {
        Trace.TraceError("NetCoreServer: a hook of {0} {1} threw: {2}", GetType().Name, Id, exception);
    }
}
