using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Only receives framed messages (protocol framed), and counts the payload bytes of whole ones. It does not override
/// OnReceived, which would see the raw chunks and turn the framing off.
/// </summary>
internal sealed class MulticastFramedClient : TcpClient, IBenchmarkClient
{
    private readonly ConnectionMeter _meter;

    public MulticastFramedClient(string address, int port, MessageFraming framing, ConnectionMeter meter)
        : base(address, port)
    {
        _meter = meter;
        Framing = framing;
    }

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnConnected() => _meter.Connected();

    protected override void OnReceivedMessage(ReadOnlySpan<byte> message) => _meter.Received(message.Length);

    protected override void OnDisconnected() => _meter.Disconnected();

    protected override void OnError(SocketError error) => _meter.Error();
}
