using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// A WebSocket echo client; see <see cref="EchoClientLogic"/>. It counts as connected, and sends its messages, once
/// the upgrade has been accepted, so a refused upgrade is a failed connect. Its hooks forward to the shared logic.
/// </summary>
internal sealed class EchoWsClient : WsClient, IBenchmarkClient
{
    public EchoWsClient(string address, int port, EchoClientLogic echo)
        : base(address, port)
    {
        _echo = echo;
        // One delegate for the whole run, not one per message.
        _send = SendBinaryAsync;
        EchoClientLogic.Configure(this);
    }

    private readonly EchoClientLogic _echo;
    private readonly Func<byte[], long, long, bool> _send;

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    public override void OnWsConnected(HttpResponse response) => _echo.ReadyForMessages(_send);

    public override void OnWsReceived(byte[] buffer, long offset, long size) => _echo.ReceivedMessage(_send, buffer, offset, size);

    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        _echo.Disconnected();
    }

    protected override void OnError(SocketError error) => _echo.Error();
}
