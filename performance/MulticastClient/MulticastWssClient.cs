using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Only receives secure WebSocket messages, and counts their payload bytes. It counts as connected once the TLS
/// handshake and the upgrade have completed, so a failure of either is a failed connect. Its hooks forward to
/// the ConnectionMeter.
/// </summary>
internal sealed class MulticastWssClient : WssClient, IBenchmarkClient
{
    public MulticastWssClient(SslContext context, string address, int port, ConnectionMeter meter)
        : base(context, address, port) => _meter = meter;

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
