using System;
using System.Net.Security;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports.Tls;

namespace NetCoreServer.Transports;

/// <summary>
/// Makes the transport of a connected socket, the one place that knows the concrete transports: the TCP options are
/// set first, then the socket goes on one of the library's event loops (<c>OptionEventLoops</c> above 0, where epoll is
/// there) or on the runtime's SocketAsyncEventArgs; a secure connection gets TLS over whichever of the two it got.
/// Stateless; a SocketException from an option the socket refuses reaches the caller before anything is made.
/// </summary>
internal static class TransportFactory
{
    /// <summary>The plain transport for <paramref name="socket"/>.</summary>
    /// <param name="socket">The connected (or accepted) socket.</param>
    /// <param name="eventLoops">How many event loops the connection may be spread over; 0 for the runtime's engine.</param>
    /// <param name="tcp">The TCP options to set; ignored for a Unix socket.</param>
    public static IStreamTransport Create(Socket socket, int eventLoops, TcpOptions? tcp)
    {
        if (tcp is { } options && socket.AddressFamily != AddressFamily.Unix)
            options.Apply(socket);
        return EpollTransport.TryCreate(socket, eventLoops) ?? (IStreamTransport)new SocketTransport(socket);
    }

    /// <summary>
    /// TLS over the plain transport for <paramref name="socket"/>. With a <paramref name="gate"/> (a server's) the
    /// handshake holds one of its slots from now until it ends, and is the one closed when the gate drops it as the oldest.
    /// </summary>
    /// <param name="socket">The connected (or accepted) socket.</param>
    /// <param name="eventLoops">See <see cref="Create"/>.</param>
    /// <param name="tcp">See <see cref="Create"/>.</param>
    /// <param name="authenticate">Runs the handshake; it calls its action when this side rejects the peer's certificate.</param>
    /// <param name="handshakeTimeout">How long the handshake may take.</param>
    /// <param name="gate">The server's cap on handshakes under way, or null.</param>
    /// <param name="time">The clock of the handshake timeout (the server's or client's OptionTimeProvider); null for the system clock.</param>
    public static IStreamTransport CreateTls(Socket socket, int eventLoops, TcpOptions? tcp, Func<SslStream, Action, CancellationToken, Task> authenticate,
        TimeSpan handshakeTimeout, HandshakeGate? gate = null, TimeProvider? time = null)
    {
        var inner = Create(socket, eventLoops, tcp);
        if (gate == null)
            return new TlsTransport(inner, authenticate, handshakeTimeout, time: time);
        TlsTransport? transport = null;
        // Dropped as the oldest pending handshake: closing the transport fails the handshake under way.
        var slot = gate.Enter(() => transport?.Close());
        transport = new TlsTransport(inner, authenticate, handshakeTimeout, () => gate.Exit(slot), time);
        return transport;
    }
}
