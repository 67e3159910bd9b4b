using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>A TCP echo client; see <see cref="EchoClientLogic"/>.</summary>
internal sealed class EchoTcpClient : TcpClient, IBenchmarkClient
{
    private readonly EchoClientLogic _echo;

    public EchoTcpClient(string address, int port, EchoClientLogic echo)
        : base(address, port)
    {
        _echo = echo;
        EchoClientLogic.Configure(this);
    }

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnConnected() => _echo.Ready(this);

    protected override void OnReceived(byte[] buffer, long offset, long size) => _echo.Received(this, buffer, offset, size);

    protected override void OnDisconnected() => _echo.Disconnected();

    protected override void OnError(SocketError error) => _echo.Error();
}
