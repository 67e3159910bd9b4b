using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

// twin: NetCoreServer.Performance.EchoClient.EchoWsClient NetCoreServer.Performance.EchoClient.EchoWssClient
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
