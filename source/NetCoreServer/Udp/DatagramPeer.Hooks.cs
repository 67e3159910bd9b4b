using System;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer;

public abstract partial class DatagramPeer
{
    /// <summary>
    /// Called for each datagram received, on a thread-pool I/O thread (the receive thread with <see cref="OptionReceiveThread"/>;
    /// the caller's for a blocking <c>Receive</c>). The buffer is pooled and valid only until this returns: copy what you keep.
    /// </summary>
    /// <remarks>
    /// Calls from the receive loop never overlap, and the next receive starts only after this returns. From
    /// <see cref="ReceiveAsync"/> it may also run on the thread that called it, when a datagram was already waiting.
    /// <c>SendAsync</c> copies, so echoing the buffer back is safe.
    /// </remarks>
    /// <param name="endpoint">The sender. Do not modify it: the runtime may reuse it for the sender's next datagram.</param>
    /// <param name="buffer">Pooled buffer holding the datagram; valid only during the call.</param>
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
    /// </summary>
    /// <remarks>
    /// <see cref="SocketError.NoBufferSpaceAvailable"/> means a SendAsync was refused by <see cref="OptionSendBufferLimit"/>;
    /// <see cref="SocketError.MessageSize"/> means a datagram longer than <see cref="OptionReceiveBufferLimit"/> was dropped
    /// (or one too long to send was refused).
    /// </remarks>
    /// <param name="error">The socket error.</param>
    protected virtual void OnError(SocketError error)
    {
    }

    /// <summary>
    /// Called on a loop's thread when a hook raised by this socket's receive or send loop threw; the socket carries on as
    /// if the hook had returned. The default writes the exception to <see cref="Trace"/>.
    /// </summary>
    /// <remarks>
    /// A hook raised inline by a call you made (a blocking Send or Receive, a refused SendAsync, a failed Connect) lets its
    /// exception reach that call instead and does not come here. An exception thrown from here is ignored.
    /// </remarks>
    /// <param name="exception">What the hook threw.</param>
    protected virtual void OnHandlerException(Exception exception)
    {
        Trace.TraceError("NetCoreServer: a hook of {0} {1} threw: {2}", GetType().Name, Id, exception);
    }
}
