using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>A TCP echo client; see <see cref="EchoClientLogic"/>. With <c>Framing</c> set (protocol framed) it sends and counts whole messages.</summary>
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

    protected override void OnConnected()
    {
        if (Framing is null)
            _echo.Ready(this);
        else
            _echo.ReadyForFramedMessages(this);
    }

    protected override void OnReceived(byte[] buffer, long offset, long size) => _echo.Received(this, buffer, offset, size);

    protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => _echo.ReceivedFramedMessage(this, message);

    protected override void OnDisconnected() => _echo.Disconnected();

    protected override void OnError(SocketError error) => _echo.Error();
}
