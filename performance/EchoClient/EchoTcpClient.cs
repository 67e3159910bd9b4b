using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// Sends the whole burst (messages in flight times message size) once connected, then returns every received chunk
/// to the server, so the same number of bytes stays in flight for the whole run.
/// </summary>
internal sealed class EchoTcpClient : TcpClient, IBenchmarkClient
{
    private readonly ConnectionMeter _meter;
    private readonly byte[] _burst;

    public EchoTcpClient(string address, int port, ConnectionMeter meter, byte[] burst)
        : base(address, port)
    {
        _meter = meter;
        _burst = burst;
        // What is queued can never exceed the burst, which the options already bound; the default limit would
        // only refuse large -m times -s combinations.
        OptionSendBufferLimit = 0;
    }

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnConnected()
    {
        SendAsync(_burst);
        _meter.Connected();
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        _meter.Received(size);
        SendAsync(buffer, offset, size);
    }

    protected override void OnDisconnected() => _meter.Disconnected();

    protected override void OnError(SocketError error) => _meter.Error();
}
