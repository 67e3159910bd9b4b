using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Only receives WebSocket messages, and counts their payload bytes. It counts as connected once the upgrade has
/// been accepted, so a refused upgrade is a failed connect. Its hooks forward to the shared logic.
/// </summary>
internal sealed class MulticastWsClient : WsClient, IBenchmarkClient
{
    public MulticastWsClient(string address, int port, ConnectionMeter meter)
        : base(address, port) => _meter = meter;

    private readonly ConnectionMeter _meter;

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    public override void OnWsConnected(HttpResponse response) => _meter.Connected();

    public override void OnWsReceived(byte[] buffer, long offset, long size) => _meter.Received(size);

    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        _meter.Disconnected();
    }

    protected override void OnError(SocketError error) => _meter.Error();
}
