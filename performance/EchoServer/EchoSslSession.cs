using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A TLS echo session; see <see cref="EchoSessionLogic"/>. Nothing arrives before the handshake completes.</summary>
internal sealed class EchoSslSession(SslServer server) : SslSession(server)
{
    protected override void OnReceived(byte[] buffer, long offset, long size) => EchoSessionLogic.Received(this, buffer, offset, size);

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
