using System.Net;

namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>Our secure WebSocket echo server on a free loopback port; its sessions report to one <see cref="WsEchoRecorder"/>.</summary>
internal sealed class InteropWssServer(SslContext context, WsEchoRecorder recorder) : WssServer(context, IPAddress.Loopback, 0)
{
    protected override SslSession CreateSession() => new InteropWssSession(this, recorder);
}
