using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>Only receives, and counts what it receives.</summary>
internal sealed class MulticastTcpClient(string address, int port, ConnectionMeter meter) : TcpClient(address, port), IBenchmarkClient
{
    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnConnected() => meter.Connected();

    protected override void OnReceived(byte[] buffer, long offset, long size) => meter.Received(size);

    protected override void OnDisconnected() => meter.Disconnected();

    protected override void OnError(SocketError error) => meter.Error();
}
