using System.Net.Sockets;

namespace NetCoreServer.Udp;

/// <summary>How the datagram engine treats a socket error.</summary>
internal static class DatagramErrors
{
    /// <summary>The socket is closed or closing: the loop that saw it ends.</summary>
    public static bool IsTeardown(SocketError error)
        => error is SocketError.OperationAborted or SocketError.Shutdown or SocketError.NotSocket
            or SocketError.Interrupted or SocketError.Disconnecting;

    /// <summary>
    /// Worth an <c>OnError</c>. Resets, refusals and aborts are not: on UDP they are ICMP port-unreachable echoes
    /// of an earlier send (Windows reports them on the next receive, Linux on connected sockets), not a failure of
    /// this socket, so the receive loop simply keeps going.
    /// </summary>
    public static bool IsReportable(SocketError error)
        => !IsTeardown(error) && error is not (SocketError.ConnectionReset or SocketError.ConnectionRefused or SocketError.ConnectionAborted);
}
