using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A Unix domain socket echo session; see <see cref="EchoSessionLogic"/>.</summary>
internal sealed class EchoUdsSession(UdsServer server) : UdsSession(server)
{
    protected override void OnReceived(byte[] buffer, long offset, long size) => EchoSessionLogic.Received(this, buffer, offset, size);

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
