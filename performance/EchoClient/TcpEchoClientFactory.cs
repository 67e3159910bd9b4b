using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>The tcp echo client. All clients share one initial burst buffer: sending copies it.</summary>
internal sealed class TcpEchoClientFactory : IBenchmarkClientFactory<EchoClientOptions>
{
    private byte[]? _burst;

    public IBenchmarkClient Create(EchoClientOptions options, ConnectionMeter meter)
    {
        _burst ??= CreateBurst(options.Messages, options.Size);
        return new EchoTcpClient(options.Address, options.ResolvedPort, meter, _burst);
    }

    private static byte[] CreateBurst(int messages, int size)
    {
        var burst = new byte[messages * size];
        for (var i = 0; i < burst.Length; i++)
            burst[i] = (byte)('a' + i % size % 26);
        return burst;
    }
}
