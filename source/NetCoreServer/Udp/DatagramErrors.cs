using System.Net.Sockets;
using NetCoreServer.Transports;

namespace NetCoreServer.Udp;

/// <summary>How the datagram engine treats a socket error.</summary>
internal static class DatagramErrors
{
    /// <summary>
    /// The socket is closed or closing: the loop that saw it ends. Every other error leaves the loop running (a reset
    /// or refusal is only an ICMP echo of an earlier send). All of these are quiet in <see cref="SocketErrors"/>.
    /// </summary>
    public static bool IsTeardown(SocketError error)
        => error is SocketError.OperationAborted or SocketError.Shutdown or SocketError.NotSocket
            or SocketError.Interrupted or SocketError.Disconnecting;

    /// <summary>Worth an <c>OnError</c>: anything not in the library's one list of quiet errors (<see cref="SocketErrors.IsQuiet"/>).</summary>
    public static bool IsReportable(SocketError error) => !SocketErrors.IsQuiet(error);
}
