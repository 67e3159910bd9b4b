using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A WebSocket echo session: every message, text or binary, goes back as one binary message (sending copies it).</summary>
internal sealed class EchoWsSession(WsServer server) : WsSession(server)
{
    public override void OnWsReceived(byte[] buffer, long offset, long size) => SendBinaryAsync(buffer, offset, size);

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
