using System.Net;
using System.Net.Sockets;
using NetCoreServer.Engine;
using NetCoreServer.Transports.Tls;

namespace NetCoreServer.Connections;

/// <summary>What an <see cref="AcceptLoop"/> asks of its server for each accepted socket, in this order.</summary>
internal interface IAcceptor
{
    /// <summary>The handshakes under way and their cap (TLS servers); null for transports without a handshake.</summary>
    HandshakeGate? Handshakes { get; }

    /// <summary>
    /// Admits the socket (caps, OnAccepting) and makes its session; false when refused, the socket then already closed
    /// and reported. On true the caller owns one admission, given back by <see cref="Abandon"/> if the session never starts.
    /// </summary>
    bool TryAdmit(Socket socket, out StreamSession? session, out EndPoint? admitted);

    /// <summary>Under the accept loop's lock: makes the session's engine over the socket, joins it to the multicast and registers it. No user code.</summary>
    /// <exception cref="SocketException">The socket rejected an option (the caller closes it).</exception>
    StreamSessionEngine RegisterLocked(StreamSession session, Socket socket, EndPoint? admitted);

    /// <summary>Gives back the admission of a session that will never start.</summary>
    void Abandon(EndPoint? admitted);

    /// <summary>Starts a registered session's hooks and loops.</summary>
    void Start(StreamSessionEngine engine);

    /// <summary>Reports an error of the listening or an accepted socket (OnError).</summary>
    void ReportError(SocketError error);
}
