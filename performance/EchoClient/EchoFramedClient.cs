using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// A TCP echo client of protocol framed; see <see cref="EchoClientLogic"/>: sends and counts whole messages. It does not
/// override OnReceived, which would see the raw chunks and turn the framing off.
/// </summary>
internal sealed class EchoFramedClient : TcpClient, IBenchmarkClient
{
    private readonly EchoClientLogic _echo;

    public EchoFramedClient(string address, int port, MessageFraming framing, EchoClientLogic echo)
        : base(address, port)
    {
        _echo = echo;
        Framing = framing;
        EchoClientLogic.Configure(this);
    }

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnConnected() => _echo.ReadyForFramedMessages(this);

    protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => _echo.ReceivedFramedMessage(this, message);

    protected override void OnDisconnected() => _echo.Disconnected();

    protected override void OnError(SocketError error) => _echo.Error();
}
