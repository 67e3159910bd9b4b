using System;
using System.Buffers.Binary;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// What one echo client does, whatever its transport: sends the whole burst (messages in flight times message size)
/// once it can, then returns every received chunk to the server, so the same number of bytes stays in flight for
/// the whole run. The tcp, ssl and uds clients forward their hooks here; so do the ws and wss clients, which send the
/// burst as one binary message per message of the run and return every received message as a message of its own.
/// Over framed the burst is length-prefixed messages and the client is the tcp one: the server echoes whole messages,
/// so the bytes it returns are whole messages again, and only the server frames (as a C load client would not).
/// </summary>
internal sealed class EchoClientLogic(ConnectionMeter meter, byte[] burst, int size)
{
    /// <summary>
    /// How to create each client of a run: <paramref name="client"/> around a new logic that reports to the client's
    /// meter. All of them share one initial burst buffer (sending copies it).
    /// </summary>
    public static Func<ConnectionMeter, IBenchmarkClient> For(EchoClientOptions options, Func<EchoClientLogic, IBenchmarkClient> client, bool framed = false)
    {
        var burst = new byte[options.Messages * options.Size];
        for (var i = 0; i < burst.Length; i++)
            burst[i] = (byte)('a' + i % options.Size % 26);
        if (framed)
        {
            // Each message of -s bytes is a 4-byte big-endian length and that many bytes after it.
            if (options.Size <= 4)
                throw new ArgumentException("framed messages need -s of at least 5 bytes (a 4-byte length and a payload)");
            for (var offset = 0; offset < burst.Length; offset += options.Size)
                BinaryPrimitives.WriteInt32BigEndian(burst.AsSpan(offset), options.Size - 4);
        }
        return meter => client(new EchoClientLogic(meter, burst, options.Size));
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

    /// <summary>
    /// Over ws and wss, call once upgraded (from OnWsConnected): sends the burst as binary messages of the run's message
    /// size, each its own frame, so the server sees the same number of messages in flight as a stream server sees bytes.
    /// </summary>
    /// <param name="sendBinary">The client's SendBinaryAsync.</param>
    public void ReadyForMessages(Func<byte[], long, long, bool> sendBinary)
    {
        for (var offset = 0; offset < burst.Length; offset += size)
            sendBinary(burst, offset, size);
        meter.Connected();
    }

    /// <summary>Over ws and wss, call from OnWsReceived: counts the message and sends it back as one binary message.</summary>
    /// <param name="sendBinary">The client's SendBinaryAsync.</param>
    public void ReceivedMessage(Func<byte[], long, long, bool> sendBinary, byte[] buffer, long offset, long size)
    {
        meter.Received(size);
        sendBinary(buffer, offset, size);
    }

    /// <summary>Call from OnDisconnected.</summary>
    public void Disconnected() => meter.Disconnected();

    /// <summary>Call from OnError.</summary>
    public void Error() => meter.Error();
}
