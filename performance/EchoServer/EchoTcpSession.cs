using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A TCP echo session; see <see cref="EchoSessionLogic"/>.</summary>
internal sealed class EchoTcpSession(TcpServer server) : TcpSession(server)
{
    protected override void OnReceived(byte[] buffer, long offset, long size) => EchoSessionLogic.Received(this, buffer, offset, size);

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
