using System.Net;
using System.Net.Sockets;

namespace NetCoreServer;

/// <summary>
/// A socket file endpoint whose file the server removes itself. A socket bound to a
/// <see cref="UnixDomainSocketEndPoint"/> unlinks that path when disposed, whatever file the path holds by then (a
/// newer server's); bound through this wrapper, the runtime leaves the path alone and <see cref="UdsServer"/>
/// removes the file only if it is still the one it bound. Addresses read back (local, remote, accepted) are plain
/// <see cref="UnixDomainSocketEndPoint"/>s.
/// </summary>
internal sealed class ServerOwnedEndPoint(UnixDomainSocketEndPoint endpoint) : EndPoint
{
    public override AddressFamily AddressFamily => endpoint.AddressFamily;

    public override SocketAddress Serialize() => endpoint.Serialize();

    public override EndPoint Create(SocketAddress socketAddress) => endpoint.Create(socketAddress);

    public override string ToString() => endpoint.ToString();
}
