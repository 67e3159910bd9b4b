using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// A TLS echo client; see <see cref="EchoClientLogic"/>. It counts as connected, and sends its burst, once the
/// handshake has completed, so a failed handshake is a failed connect.
/// </summary>
internal sealed class EchoSslClient : SslClient, IBenchmarkClient
{
    private readonly EchoClientLogic _echo;

    public EchoSslClient(SslContext context, string address, int port, EchoClientLogic echo)
        : base(context, address, port)
    {
        _echo = echo;
        EchoClientLogic.Configure(this);
    }

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnHandshaked() => _echo.Ready(this);

    protected override void OnReceived(byte[] buffer, long offset, long size) => _echo.Received(this, buffer, offset, size);

    protected override void OnDisconnected() => _echo.Disconnected();

    protected override void OnError(SocketError error) => _echo.Error();
}
