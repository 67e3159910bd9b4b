using System;

namespace NetCoreServer;

public partial class UdpServer
{
    /// <summary>Sends one datagram to the server's own <see cref="DatagramPeer.Endpoint"/> synchronously; see <see cref="Send(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>Bytes sent; 0 when not started or on error.</returns>
    public virtual long Send(byte[] buffer) => Send(buffer, 0, buffer.Length);

    /// <summary>Sends part of a buffer as one datagram to the server's own endpoint synchronously; see <see cref="Send(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram.</param>
    /// <returns>Bytes sent; 0 when not started or on error.</returns>
    public virtual long Send(byte[] buffer, long offset, long size) => Send(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends one datagram to <see cref="DatagramPeer.Endpoint"/>, the endpoint this server is bound to, with the blocking
    /// <see cref="DatagramPeer.Send(System.Net.EndPoint, ReadOnlySpan{byte})"/>; OnSent runs on the calling thread.
    /// </summary>
    /// <remarks>
    /// As NetCoreServer's UdpServer.Send, this is the bound endpoint even for a server started with a multicast endpoint:
    /// to reach the group use <see cref="Multicast(ReadOnlySpan{byte})"/>. A server bound to a unicast address such as
    /// 127.0.0.1 gets the datagram back itself (OnReceived, when it is receiving).
    /// </remarks>
    /// <param name="buffer">The datagram; not kept after the call returns.</param>
    /// <returns>Bytes sent; 0 when not started or on error.</returns>
    public virtual long Send(ReadOnlySpan<byte> buffer) => Send(Endpoint, buffer);

    /// <summary>Sends text as one UTF-8 datagram to the server's own endpoint synchronously; see <see cref="Send(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not started or on error.</returns>
    public virtual long Send(string text) => Send(Endpoint, text);

    /// <summary>Sends text as one UTF-8 datagram to the server's own endpoint synchronously; see <see cref="Send(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not started or on error.</returns>
    public virtual long Send(ReadOnlySpan<char> text) => Send(Endpoint, text);
}
