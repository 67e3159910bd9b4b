using System.Net.Sockets;

namespace NetCoreServer.Tcp;

/// <summary>Applies the TCP-only socket options shared by server sessions and clients.</summary>
internal static class TcpSocketOptions
{
    public static void Apply(Socket socket, bool keepAlive, int keepAliveTime, int keepAliveInterval, int keepAliveRetryCount, bool noDelay)
    {
        if (keepAlive)
            socket.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive, true);
        if (keepAliveTime >= 0)
            socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime, keepAliveTime);
        if (keepAliveInterval >= 0)
            socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval, keepAliveInterval);
        if (keepAliveRetryCount >= 0)
            socket.SetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveRetryCount, keepAliveRetryCount);
        if (noDelay)
            socket.NoDelay = true;
    }
}
