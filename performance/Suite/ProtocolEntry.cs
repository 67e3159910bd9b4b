namespace NetCoreServer.Performance.Suite;

/// <summary>
/// One protocol of the suite: its name as the benchmark programs take it (<c>--protocol</c>), what can run over it,
/// and how many messages each echo client keeps in flight.
/// </summary>
internal sealed record ProtocolEntry(string Name, ProtocolTraits Traits, int EchoMessages)
{
    /// <summary>True when every trait in <paramref name="traits"/> is set.</summary>
    public bool Has(ProtocolTraits traits) => (Traits & traits) == traits;

    /// <summary>True when the protocol reaches its server through a socket file instead of a port.</summary>
    public bool UsesSocketFile => Name == "uds";

    /// <summary>True when the protocol's endpoint is a UDP port.</summary>
    public bool IsDatagram => Name == "udp";
}
