using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>The part every echo client factory shares: one initial burst buffer for all clients (sending copies it).</summary>
internal abstract class EchoClientFactory : IBenchmarkClientFactory<EchoClientOptions>
{
    private byte[]? _burst;

    public IBenchmarkClient Create(EchoClientOptions options, ConnectionMeter meter)
    {
        _burst ??= CreateBurst(options.Messages, options.Size);
        return Create(options, new EchoClientLogic(meter, _burst));
    }

    /// <summary>Creates the transport's client around <paramref name="echo"/>.</summary>
    protected abstract IBenchmarkClient Create(EchoClientOptions options, EchoClientLogic echo);

    private static byte[] CreateBurst(int messages, int size)
    {
        var burst = new byte[messages * size];
        for (var i = 0; i < burst.Length; i++)
            burst[i] = (byte)('a' + i % size % 26);
        return burst;
    }
}
