using System;

namespace NetCoreServer;

public partial class UdpClient
{
    /// <summary>Sends one datagram to the server synchronously; see <see cref="DatagramPeer.Send(System.Net.EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>Bytes sent; 0 when not connected or on error.</returns>
    public virtual long Send(byte[] buffer) => Send(buffer, 0, buffer.Length);

    /// <summary>Sends part of a buffer to the server as one datagram synchronously.</summary>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram.</param>
    /// <returns>Bytes sent; 0 when not connected or on error.</returns>
    public virtual long Send(byte[] buffer, long offset, long size) => Send(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Sends one datagram to the server (<see cref="DatagramPeer.Endpoint"/>) synchronously.</summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>Bytes sent; 0 when not connected or on error.</returns>
    public virtual long Send(ReadOnlySpan<byte> buffer) => Send(Endpoint, buffer);

    /// <summary>Sends text to the server as one UTF-8 datagram synchronously.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not connected or on error.</returns>
    public virtual long Send(string text) => Send(Endpoint, text);

    /// <summary>Sends text to the server as one UTF-8 datagram synchronously.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not connected or on error.</returns>
    public virtual long Send(ReadOnlySpan<char> text) => Send(Endpoint, text);

    /// <summary>Queues one datagram for the server; see <see cref="DatagramPeer.SendAsync(System.Net.EndPoint, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(byte[] buffer) => SendAsync(buffer, 0, buffer.Length);

    /// <summary>Queues part of a buffer as one datagram for the server.</summary>
    /// <param name="buffer">Buffer holding the datagram.</param>
    /// <param name="offset">Offset of the datagram in <paramref name="buffer"/>.</param>
    /// <param name="size">Size of the datagram.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(byte[] buffer, long offset, long size) => SendAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues one datagram for the server (<see cref="DatagramPeer.Endpoint"/>); copied before the call returns.</summary>
    /// <param name="buffer">The datagram.</param>
    /// <returns>True when queued; false when not connected or over <see cref="DatagramPeer.OptionSendBufferLimit"/>.</returns>
    public virtual bool SendAsync(ReadOnlySpan<byte> buffer) => SendAsync(Endpoint, buffer);

    /// <summary>Queues text as one UTF-8 datagram for the server.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(string text) => SendAsync(Endpoint, text);

    /// <summary>Queues text as one UTF-8 datagram for the server.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(ReadOnlySpan<char> text) => SendAsync(Endpoint, text);
}
