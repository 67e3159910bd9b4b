using System.Net.Sockets;

namespace NetCoreServer.Transports;

/// <summary>The TCP-only socket options of a server's sessions or a client, applied by <see cref="TransportFactory"/>.</summary>
/// <param name="KeepAlive">Enable SO_KEEPALIVE.</param>
/// <param name="KeepAliveTime">Seconds of idleness before the first probe; below 0 keeps the system value.</param>
/// <param name="KeepAliveInterval">Seconds between probes; below 0 keeps the system value.</param>
/// <param name="KeepAliveRetryCount">Unanswered probes before the drop; below 0 keeps the system value.</param>
/// <param name="NoDelay">Disable Nagle's algorithm.</param>
internal readonly record struct TcpOptions(bool KeepAlive, int KeepAliveTime, int KeepAliveInterval, int KeepAliveRetryCount, bool NoDelay)
{
    /// <summary>Sets the options on a TCP socket; throws the socket's SocketException when it refuses one.</summary>
    public void Apply(Socket socket)
    {
        if (KeepAlive)
            socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive, true);
        if (KeepAliveTime >= 0)
            socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime, KeepAliveTime);
        if (KeepAliveInterval >= 0)
            socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval, KeepAliveInterval);
        if (KeepAliveRetryCount >= 0)
            socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveRetryCount, KeepAliveRetryCount);
        if (NoDelay)
            socket.NoDelay = true;
    }
}
