using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Engine;
using NetCoreServer.Protocols;
using NetCoreServer.Udp;

namespace NetCoreServer;

public abstract partial class DatagramPeer
{
    // SendAsync's datagrams refused by the send limit, since the peer was made (netcoreserver.udp.datagrams_dropped).
    private long _datagramsDropped;

    internal long DatagramsDropped => System.Threading.Interlocked.Read(ref _datagramsDropped);

    /// <summary>Sends one datagram to an endpoint and blocks until the socket has taken it; see <see cref="Send(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="buffer">The datagram.</param>
    /// <returns>Bytes sent; 0 when not open or on error.</returns>
    public virtual long Send(EndPoint endpoint, byte[] buffer) => Send(endpoint, buffer, 0, buffer.Length);

    /// <summary>Sends part of a buffer as one datagram; see <see cref="Send(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram.</param>
    /// <returns>Bytes sent; 0 when not open or on error.</returns>
    public virtual long Send(EndPoint endpoint, byte[] buffer, long offset, long size)
        => Send(endpoint, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends one datagram synchronously with SendTo, on the calling thread, then raises <see cref="OnSent"/> there.
    /// Errors worth reporting go to <see cref="OnError"/> (also on the calling thread) and give 0. An empty span sends
    /// an empty datagram, which UDP allows. A host-name endpoint is resolved on every call.
    /// </summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="buffer">The datagram.</param>
    /// <returns>Bytes sent; 0 when not open or on error.</returns>
    public virtual long Send(EndPoint endpoint, ReadOnlySpan<byte> buffer)
    {
        var engine = OpenEngine;
        if (engine == null)
            return 0;
        var target = endpoint is DnsEndPoint ? Resolve(endpoint) : endpoint;
        var sent = engine.SendBlocking(target, buffer);
        if (sent < 0)
            return 0;
        using (Hooks.Enter(this))
            OnSent(target, sent);
        return sent;
    }

    /// <summary>Sends text as one UTF-8 datagram synchronously; see <see cref="Send(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not open or on error.</returns>
    public virtual long Send(EndPoint endpoint, string text) => Send(endpoint, text.AsSpan());

    /// <summary>Sends text as one UTF-8 datagram synchronously; see <see cref="Send(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not open or on error.</returns>
    public virtual long Send(EndPoint endpoint, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Send(endpoint, bytes.Span);
    }

    /// <summary>Queues one datagram for an endpoint; see <see cref="SendAsync(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="buffer">The datagram.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(EndPoint endpoint, byte[] buffer) => SendAsync(endpoint, buffer, 0, buffer.Length);

    /// <summary>Queues part of a buffer as one datagram; see <see cref="SendAsync(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(EndPoint endpoint, byte[] buffer, long offset, long size)
        => SendAsync(endpoint, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Copies one datagram into the send queue and returns; the send loop hands it to the socket and raises
    /// <see cref="OnSent"/>. Safe from any thread; never throws after close.
    /// </summary>
    /// <remarks>
    /// When nothing else is being sent the datagram usually goes out (and OnSent runs) on the calling thread before this
    /// returns, as in NetCoreServer. Datagrams still queued when the socket closes from inside a hook are dropped.
    /// </remarks>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="buffer">The datagram (copied before the call returns).</param>
    /// <returns>
    /// True when queued. False when not open, or when <see cref="OptionSendBufferLimit"/> would be passed: then
    /// <see cref="OnError"/> gets <see cref="SocketError.NoBufferSpaceAvailable"/> on the calling thread.
    /// </returns>
    public virtual bool SendAsync(EndPoint endpoint, ReadOnlySpan<byte> buffer)
    {
        var engine = OpenEngine;
        if (engine == null)
            return false;
        var target = endpoint is DnsEndPoint ? Resolve(endpoint) : endpoint;
        switch (engine.Enqueue(target, buffer))
        {
            case EnqueueResult.Accepted:
                return true;
            case EnqueueResult.OverLimit:
                System.Threading.Interlocked.Increment(ref _datagramsDropped);
                engine.ReportInline(SocketError.NoBufferSpaceAvailable);
                return false;
            default:
                return false;
        }
    }

    /// <summary>Queues text as one UTF-8 datagram; see <see cref="SendAsync(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(EndPoint endpoint, string text) => SendAsync(endpoint, text.AsSpan());

    /// <summary>Queues text as one UTF-8 datagram; see <see cref="SendAsync(EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="endpoint">Where to send.</param>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(EndPoint endpoint, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return SendAsync(endpoint, bytes.Span);
    }
}
