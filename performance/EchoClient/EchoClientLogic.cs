using System;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// What one echo client does, whatever its transport: sends the whole burst (messages in flight times message size)
/// once it can, then returns every received chunk to the server, so the same number of bytes stays in flight for
/// the whole run. The tcp, ssl and uds clients forward their hooks here.
/// </summary>
internal sealed class EchoClientLogic(ConnectionMeter meter, byte[] burst)
{
    /// <summary>
    /// How to create each client of a run: <paramref name="client"/> around a new logic that reports to the client's
    /// meter. All of them share one initial burst buffer (sending copies it).
    /// </summary>
    public static Func<ConnectionMeter, IBenchmarkClient> For(EchoClientOptions options, Func<EchoClientLogic, IBenchmarkClient> client)
    {
        var burst = new byte[options.Messages * options.Size];
        for (var i = 0; i < burst.Length; i++)
            burst[i] = (byte)('a' + i % options.Size % 26);
        return meter => client(new EchoClientLogic(meter, burst));
    }

    /// <summary>Call from the client's constructor.</summary>
    public static void Configure(StreamClient client)
    {
        // What is queued can never exceed the burst, which the options already bound; the default limit would
        // only refuse large -m times -s combinations.
        client.OptionSendBufferLimit = 0;
    }

    /// <summary>Call once data can flow: from OnConnected over tcp and uds, from OnHandshaked over ssl.</summary>
    public void Ready(StreamClient client)
    {
        client.SendAsync(burst);
        meter.Connected();
    }

    /// <summary>Call from OnReceived.</summary>
    public void Received(StreamClient client, byte[] buffer, long offset, long size)
    {
        meter.Received(size);
        client.SendAsync(buffer, offset, size);
    }

    /// <summary>Call from OnDisconnected.</summary>
    public void Disconnected() => meter.Disconnected();

    /// <summary>Call from OnError.</summary>
    public void Error() => meter.Error();
}
