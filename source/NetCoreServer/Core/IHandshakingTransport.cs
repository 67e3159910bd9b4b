using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>A transport that must complete a handshake (TLS) before data flows.</summary>
internal interface IHandshakingTransport
{
    /// <summary>True once the handshake succeeded.</summary>
    bool IsHandshaked { get; }

    /// <summary>Runs the handshake once (later calls return the same task); completes with the error that stopped it, or Success.</summary>
    Task<SocketError> HandshakeAsync();
}
