using System;
using System.Text;
using NetCoreServer.Core;

namespace NetCoreServer;

public abstract partial class StreamConnection
{
    /// <summary>
    /// Blocking receive for connections that do not run the receive loop (a client after the synchronous
    /// <c>Connect</c>, before <see cref="ReceiveAsync"/>). Raises <see cref="OnReceived"/> with the data. On an event
    /// loop's thread it throws instead of waiting there for the peer: use <see cref="ReceiveAsync"/>.
    /// </summary>
    /// <param name="buffer">Buffer to fill.</param>
    /// <returns>Bytes received; 0 when not connected, when the peer closed, or while the receive loop runs.</returns>
    /// <exception cref="InvalidOperationException">Called on an event loop's thread.</exception>
    public virtual long Receive(byte[] buffer) => Receive(buffer, 0, buffer.Length);

    /// <summary>Blocking receive into part of a buffer; see <see cref="Receive(byte[])"/>.</summary>
    /// <param name="buffer">Buffer to fill.</param>
    /// <param name="offset">Where to start writing.</param>
    /// <param name="size">Most bytes to read.</param>
    /// <returns>Bytes received.</returns>
    /// <exception cref="InvalidOperationException">Called on an event loop's thread.</exception>
    public virtual long Receive(byte[] buffer, long offset, long size)
    {
        var engine = Engine;
        if (engine == null)
            return 0;
        Transports.EventLoop.ThrowIfLoopThread(nameof(Receive), nameof(ReceiveAsync));
        var result = engine.ReceiveBlocking(buffer.AsSpan(checked((int)offset), checked((int)size)));
        if (result.Bytes > 0)
        {
            using var scope = Hooks.Enter(engine);
            OnReceived(buffer, offset, result.Bytes);
        }
        return result.Bytes;
    }

    /// <summary>Blocking receive of up to <paramref name="size"/> bytes, decoded as UTF-8.</summary>
    /// <param name="size">Most bytes to read.</param>
    /// <returns>The text received; empty when nothing was.</returns>
    public virtual string Receive(long size)
    {
        var buffer = new byte[size];
        var length = Receive(buffer);
        return Encoding.UTF8.GetString(buffer, 0, (int)length);
    }

    /// <summary>Starts the receive loop (if it is not running yet); data then arrives through <see cref="OnReceived"/>.</summary>
    public virtual void ReceiveAsync() => Engine?.StartReceiving();
}
