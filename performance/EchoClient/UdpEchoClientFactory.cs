using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>The udp echo client: <c>-m</c> datagrams of <c>-s</c> bytes in flight per client, all sharing one message buffer (sending copies it).</summary>
internal sealed class UdpEchoClientFactory : IBenchmarkClientFactory<EchoClientOptions>
{
    private byte[]? _message;

    public IBenchmarkClient Create(EchoClientOptions options, ConnectionMeter meter)
    {
        _message ??= CreateMessage(options.Size);
        return new EchoUdpClient(options.Address, options.ResolvedPort, options.Messages, _message, meter);
    }

    private static byte[] CreateMessage(int size)
    {
        var message = new byte[size];
        for (var i = 0; i < size; i++)
            message[i] = (byte)('a' + i % 26);
        return message;
    }
}
