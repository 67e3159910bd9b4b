using NetCoreServer.Diagnostics;

namespace NetCoreServer;

/// <summary>A stream server's own counters, as the observable instruments read them.</summary>
/// <typeparam name="TSession">The server's session type.</typeparam>
internal sealed class StreamReadings<TSession>(StreamServer<TSession> server) : IServerReadings
    where TSession : StreamSession
{
    public bool Datagram => false;

    public long ActiveConnections => server.ConnectedSessions;

    public long BytesReceived => server.BytesReceived;

    public long BytesSent => server.BytesSent;

    public long BytesQueued => server.BytesPending;

    public long SkippedMulticasts => server.SkippedMulticasts;

    public long SlowConsumerEpisodes => server.SlowConsumerEpisodes;

    public long DatagramsReceived => 0;

    public long DatagramsSent => 0;

    public long DatagramsDropped => 0;
}
