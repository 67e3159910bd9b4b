using System.Net;

namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>Our WebSocket echo server on a free loopback port; its sessions report to one <see cref="WsEchoRecorder"/>.</summary>
internal sealed class InteropWsServer(WsEchoRecorder recorder) : WsServer(IPAddress.Loopback, 0)
{
    protected override TcpSession CreateSession() => new InteropWsSession(this, recorder);
}
