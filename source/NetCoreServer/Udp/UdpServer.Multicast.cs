using System;
using NetCoreServer.Protocols;

namespace NetCoreServer;

public partial class UdpServer
{
    /// <summary>Sends one datagram to <see cref="MulticastEndpoint"/> synchronously; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>Bytes sent; 0 when not started, without a multicast endpoint, or on error.</returns>
    public virtual long Multicast(byte[] buffer) => Multicast(buffer, 0, buffer.Length);

    /// <summary>Sends part of a buffer to <see cref="MulticastEndpoint"/> synchronously; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram.</param>
    /// <returns>Bytes sent; 0 when not started, without a multicast endpoint, or on error.</returns>
    public virtual long Multicast(byte[] buffer, long offset, long size) => Multicast(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends one datagram to <see cref="MulticastEndpoint"/> with the synchronous <c>Send</c>. The datagram goes out of
    /// the interface chosen by <see cref="DatagramPeer.OptionMulticastInterface"/> (or the routing table) with the
    /// system's multicast TTL (1 by default, so it does not leave the local network).
    /// </summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>Bytes sent; 0 when not started, without a multicast endpoint, or on error.</returns>
    public virtual long Multicast(ReadOnlySpan<byte> buffer)
    {
        var group = MulticastEndpoint;
        return group == null ? 0 : Send(group, buffer);
    }

    /// <summary>Sends text as one UTF-8 datagram to <see cref="MulticastEndpoint"/> synchronously.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not started, without a multicast endpoint, or on error.</returns>
    public virtual long Multicast(string text) => Multicast(text.AsSpan());

    /// <summary>Sends text as one UTF-8 datagram to <see cref="MulticastEndpoint"/> synchronously.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not started, without a multicast endpoint, or on error.</returns>
    public virtual long Multicast(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Multicast(bytes.Span);
    }

    /// <summary>Queues one datagram for <see cref="MulticastEndpoint"/>; see <see cref="MulticastAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>True when queued.</returns>
    public virtual bool MulticastAsync(byte[] buffer) => MulticastAsync(buffer, 0, buffer.Length);

    /// <summary>Queues part of a buffer for <see cref="MulticastEndpoint"/>; see <see cref="MulticastAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram.</param>
    /// <returns>True when queued.</returns>
    public virtual bool MulticastAsync(byte[] buffer, long offset, long size) => MulticastAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues one datagram for <see cref="MulticastEndpoint"/> with <c>SendAsync</c> (same queue, limit and hooks).</summary>
    /// <param name="buffer">The datagram (copied before the call returns).</param>
    /// <returns>True when queued; false when not started, without a multicast endpoint, or over the send limit.</returns>
    public virtual bool MulticastAsync(ReadOnlySpan<byte> buffer)
    {
        var group = MulticastEndpoint;
        return group != null && SendAsync(group, buffer);
    }

    /// <summary>Queues text as one UTF-8 datagram for <see cref="MulticastEndpoint"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool MulticastAsync(string text) => MulticastAsync(text.AsSpan());

    /// <summary>Queues text as one UTF-8 datagram for <see cref="MulticastEndpoint"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool MulticastAsync(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return MulticastAsync(bytes.Span);
    }
}
