namespace NetCoreServer.Diagnostics;

/// <summary>
/// The counters a server already keeps, read by the observable instruments when a listener collects (never on the hot
/// path). A reading that does not apply to the server's kind (connections for UDP, datagrams for a stream server) is
/// skipped through <see cref="Datagram"/>.
/// </summary>
internal interface IServerReadings
{
    /// <summary>True for a UDP server: datagram readings apply, connection readings do not.</summary>
    bool Datagram { get; }

    long ActiveConnections { get; }

    long BytesReceived { get; }

    long BytesSent { get; }

    /// <summary>Bytes accepted for sending and not yet handed to the socket.</summary>
    long BytesQueued { get; }

    long SkippedMulticasts { get; }

    long SlowConsumerEpisodes { get; }

    long DatagramsReceived { get; }

    long DatagramsSent { get; }

    long DatagramsDropped { get; }
}
