using NetCoreServer.Diagnostics;

namespace NetCoreServer;

/// <summary>A UDP server's own counters, as the observable instruments read them.</summary>
internal sealed class DatagramReadings(UdpServer server) : IServerReadings
{
    public bool Datagram => true;

    public long ActiveConnections => 0;

    public long BytesReceived => server.BytesReceived;

    public long BytesSent => server.BytesSent;

    public long BytesQueued => server.BytesPending + server.BytesSending;

    public long SkippedMulticasts => 0;

    public long SlowConsumerEpisodes => 0;

    public long DatagramsReceived => server.DatagramsReceived;

    public long DatagramsSent => server.DatagramsSent;

    public long DatagramsDropped => server.DatagramsDropped;
}
