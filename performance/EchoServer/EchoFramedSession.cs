using System;
using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>
/// A TCP echo session of protocol framed: sends every whole message back as one message. It does not override
/// OnReceived, which would see the raw chunks and turn the framing off (as it turns HTTP parsing off).
/// </summary>
internal sealed class EchoFramedSession(TcpServer server) : TcpSession(server)
{
    // The send queue copies the message, so the receive buffer it lies in can be reused at once.
    protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => SendMessageAsync(message);

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
