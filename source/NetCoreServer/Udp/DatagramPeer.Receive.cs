using System;
using System.Net;
using System.Text;
using NetCoreServer.Engine;

namespace NetCoreServer;

public abstract partial class DatagramPeer
{
    /// <summary>Blocking receive of one datagram; see <see cref="Receive(ref EndPoint, byte[], long, long)"/>.</summary>
    /// <param name="endpoint">Set to the sender's endpoint.</param>
    /// <param name="buffer">Buffer to receive into.</param>
    /// <returns>Size of the datagram; 0 when not open or on error.</returns>
    public virtual long Receive(ref EndPoint endpoint, byte[] buffer) => Receive(ref endpoint, buffer, 0, buffer.Length);

    /// <summary>
    /// Blocking receive of one datagram with ReceiveFrom, for code that does not use <see cref="ReceiveAsync"/>; raises
    /// <see cref="OnReceived"/> on the calling thread, as NetCoreServer does.
    /// </summary>
    /// <remarks>
    /// Do not mix the two on one socket: each datagram goes to only one of them. A datagram longer than
    /// <paramref name="size"/> is reported as <see cref="System.Net.Sockets.SocketError.MessageSize"/> and gives 0.
    /// </remarks>
    /// <param name="endpoint">Set to the sender's endpoint.</param>
    /// <param name="buffer">Buffer to receive into.</param>
    /// <param name="offset">Where in <paramref name="buffer"/> to start.</param>
    /// <param name="size">Room for the datagram.</param>
    /// <returns>Size of the datagram; 0 when not open or on error.</returns>
    public virtual long Receive(ref EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        var engine = OpenEngine;
        if (engine == null)
            return 0;
        var received = engine.ReceiveBlocking(ref endpoint, buffer.AsSpan(checked((int)offset), checked((int)size)));
        if (received < 0)
            return 0;
        using (Hooks.Enter(this))
            OnReceived(endpoint, buffer, offset, received);
        return received;
    }

    /// <summary>Blocking receive of one datagram of at most <paramref name="size"/> bytes, decoded as UTF-8.</summary>
    /// <param name="endpoint">Set to the sender's endpoint.</param>
    /// <param name="size">Largest datagram expected.</param>
    /// <returns>The text received; empty when nothing was.</returns>
    public virtual string Receive(ref EndPoint endpoint, long size)
    {
        var buffer = new byte[size];
        var length = Receive(ref endpoint, buffer);
        return Encoding.UTF8.GetString(buffer, 0, (int)length);
    }

    /// <summary>
    /// NetCoreServer's one-shot receive: asks for the next datagram, delivered to <see cref="OnReceived"/>; call it again
    /// (from OnReceived, OnSent or anywhere) for the one after. Not needed with <see cref="OptionContinuousReceive"/>.
    /// </summary>
    /// <remarks>
    /// At most one receive is outstanding, so calls made while it is pending change nothing. From inside OnReceived it
    /// only records the request (never recurses); elsewhere a datagram already waiting may be delivered on the calling
    /// thread before this returns.
    /// </remarks>
    public virtual void ReceiveAsync() => OpenEngine?.RequestReceive();
}
