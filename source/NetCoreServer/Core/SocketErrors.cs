using System.Net.Sockets;

namespace NetCoreServer.Core;

/// <summary>The one list of socket errors that are an ordinary way for a connection or a socket to end.</summary>
internal static class SocketErrors
{
    /// <summary>
    /// Not worth an <c>OnError</c>: the peer reset, refused or aborted, or this side closed the socket. NetCoreServer
    /// does not report these either. On UDP a reset or refusal is an ICMP echo of an earlier send, not a failure.
    /// </summary>
    public static bool IsQuiet(SocketError error)
        => error is SocketError.ConnectionAborted or SocketError.ConnectionRefused or SocketError.ConnectionReset
            or SocketError.OperationAborted or SocketError.Shutdown or SocketError.NotConnected
            or SocketError.NotSocket or SocketError.Interrupted or SocketError.Disconnecting;
}
