using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A secure WebSocket echo session: every message goes back as one binary message. Upgrades follow the TLS handshake.</summary>
internal sealed class EchoWssSession(WssServer server) : WssSession(server)
{
    public override void OnWsReceived(byte[] buffer, long offset, long size) => SendBinaryAsync(buffer, offset, size);

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
