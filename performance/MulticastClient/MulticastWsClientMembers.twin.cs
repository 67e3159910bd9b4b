using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

// twin: NetCoreServer.Performance.MulticastClient.MulticastWsClient NetCoreServer.Performance.MulticastClient.MulticastWssClient
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
