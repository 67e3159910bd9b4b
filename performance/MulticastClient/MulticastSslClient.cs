using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Only receives over TLS, and counts what it receives. It counts as connected once the handshake has completed,
/// so a failed handshake is a failed connect.
/// </summary>
internal sealed class MulticastSslClient(SslContext context, string address, int port, ConnectionMeter meter)
    : SslClient(context, address, port), IBenchmarkClient
{
    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnHandshaked() => meter.Connected();

    protected override void OnReceived(byte[] buffer, long offset, long size) => meter.Received(size);

    protected override void OnDisconnected() => meter.Disconnected();

    protected override void OnError(SocketError error) => meter.Error();
}
