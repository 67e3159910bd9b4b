using System;
using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A TCP echo session; see <see cref="EchoSessionLogic"/>. With its server's framing (protocol framed) it echoes whole messages.</summary>
internal sealed class EchoTcpSession(TcpServer server) : TcpSession(server)
{
    protected override void OnReceived(byte[] buffer, long offset, long size) => EchoSessionLogic.Received(this, buffer, offset, size);

    // The send queue copies the message, so the receive buffer it lies in can be reused at once.
    protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => SendMessageAsync(message);

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
