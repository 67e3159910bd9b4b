using System;
using System.Net.Sockets;

namespace NetCoreServer.Transports;

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

    /// <summary>
    /// The error a socket call's exception stands for, so callers can return errors as values: a
    /// <see cref="SocketException"/>'s own code, <see cref="SocketError.OperationAborted"/> for a closed socket
    /// (<see cref="ObjectDisposedException"/>), <see cref="SocketError.AddressFamilyNotSupported"/> for a target of the
    /// wrong address family (<see cref="ArgumentException"/>: IPv6 on an IPv4 socket, or IPv4 without dual mode). False
    /// for any other exception, which is a bug and is left to propagate.
    /// </summary>
    public static bool FromException(Exception exception, out SocketError error)
    {
        error = exception switch
        {
            SocketException socket => socket.SocketErrorCode,
            ObjectDisposedException => SocketError.OperationAborted,
            ArgumentException => SocketError.AddressFamilyNotSupported,
            _ => SocketError.Success,
        };
        return error != SocketError.Success;
    }
}
