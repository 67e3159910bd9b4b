using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Only receives WebSocket messages, and counts their payload bytes. It counts as connected once the upgrade has
/// been accepted, so a refused upgrade is a failed connect.
/// </summary>
internal sealed class MulticastWsClient(string address, int port, ConnectionMeter meter) : WsClient(address, port), IBenchmarkClient
{
    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    public override void OnWsConnected(HttpResponse response) => meter.Connected();

    public override void OnWsReceived(byte[] buffer, long offset, long size) => meter.Received(size);

    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        meter.Disconnected();
    }

    protected override void OnError(SocketError error) => meter.Error();
}
