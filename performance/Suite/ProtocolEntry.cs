namespace NetCoreServer.Performance.Suite;

/// <summary>
/// One row group of the suite: its name in the table and in <c>--protocol</c>, what can run over it, and how many
/// messages each echo client keeps in flight. A variant of a protocol (the same transport with one of our server's
/// options) names the protocol the benchmark programs take (<see cref="Transport"/>) and the options our server gets.
/// </summary>
internal sealed record ProtocolEntry(string Name, ProtocolTraits Traits, int EchoMessages)
{
    /// <summary>The protocol as the benchmark programs take it (<c>--protocol</c>); the name unless this is a variant.</summary>
    public string Transport { get; init; } = Name;

    /// <summary>Options only our echo server gets (a variant's); the baselines and clients run as for <see cref="Transport"/>.</summary>
    public string[] ServerOptions { get; init; } = [];

    /// <summary>
    /// Options every .NET server of the row group gets, ours and the raw baseline alike: runtime settings such as the
    /// inline socket completions, so that both sides run the same way and only the servers differ.
    /// </summary>
    public string[] RuntimeOptions { get; init; } = [];

    /// <summary>The protocol KestrelServer takes for this row (http, https, ws, wss, h2c, h2); <see cref="Transport"/> unless set.</summary>
    public string KestrelProtocol
    {
        get => _kestrelProtocol ?? Transport;
        init => _kestrelProtocol = value;
    }

    private readonly string? _kestrelProtocol;

    /// <summary>True when every trait in <paramref name="traits"/> is set.</summary>
    public bool Has(ProtocolTraits traits) => (Traits & traits) == traits;

    /// <summary>True when the protocol reaches its server through a socket file instead of a port.</summary>
    public bool UsesSocketFile => Transport == "uds";

    /// <summary>True when the protocol's endpoint is a UDP port.</summary>
    public bool IsDatagram => Transport == "udp";
}
