using System.Net;

namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>Our WebSocket client of a loopback port, reporting to a <see cref="WsClientProbe"/>.</summary>
internal sealed class InteropWsClient(int port, WsClientProbe probe) : WsClient(IPAddress.Loopback, port), IInteropWsClient
{
    public override void OnWsConnected(HttpResponse response) => probe.Connected(response);

    public override void OnWsReceived(byte[] buffer, long offset, long size) => probe.Received(buffer, offset, size);

    public override void OnWsPong(byte[] buffer, long offset, long size) => probe.Pong(buffer, offset, size);

    public override void OnWsClose(byte[] buffer, long offset, long size, int status = 1000) => probe.Close(buffer, offset, size, status);

    public override void OnWsDisconnected() => probe.Disconnected();

    public override void OnWsError(string error) => probe.Error(error);
}
