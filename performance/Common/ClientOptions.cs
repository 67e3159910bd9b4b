using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>Options of a benchmark client.</summary>
public class ClientOptions : EndpointOptions
{
    /// <summary>Number of connections (<c>-c</c>); default 100.</summary>
    [Option('c', "clients", Default = 100, HelpText = "Count of working clients.")]
    public int Clients { get; set; } = 100;

    /// <summary>Size of one message in bytes (<c>-s</c>); default 32. Messages are counted as received bytes divided by it.</summary>
    [Option('s', "size", Default = 32, HelpText = "Single message size in bytes.")]
    public int Size { get; set; } = 32;

    /// <summary>How long to measure (<c>-z</c>); default 10 seconds.</summary>
    [Option('z', "seconds", Default = 10, HelpText = "Count of seconds to benchmarking.")]
    public int Seconds { get; set; } = 10;

    /// <summary>Prints the result as one JSON line instead of the table (<c>--json</c>).</summary>
    [Option("json", Default = false, HelpText = "Print the result as one JSON line.")]
    public bool Json { get; set; }

    /// <summary>
    /// The authority the ssl server's certificate must chain to (<c>--ca</c>); default null, which means
    /// <c>tools/certificates/ca.crt</c> of the repository (see <see cref="DevelopmentTls.TrustAuthority"/>).
    /// </summary>
    [Option("ca", HelpText = "ssl: the authority certificate (PEM or DER) the server's certificate must chain to (default: tools/certificates/ca.crt of the repository).")]
    public string? Authority { get; set; }

    /// <summary>The "messages" figure of the report, or null when this client has none.</summary>
    public virtual int? ReportedMessages => null;

    /// <summary>True when this client counts lost datagrams, which the report then shows.</summary>
    public virtual bool ReportsLoss => false;

    /// <inheritdoc />
    public override string? Validate()
    {
        if (Clients < 1)
            return $"the client count (-c) must be at least 1, not {Clients}";
        if (Size < 1)
            return $"the message size (-s) must be at least 1, not {Size}";
        if (Protocols.IsDatagram(Protocol) && Size > Protocols.MaxDatagramSize)
            return $"a udp message (-s) is one datagram, at most {Protocols.MaxDatagramSize} bytes, not {Size}";
        if (Protocols.IsFramed(Protocol) && Size > Protocols.MaxFramedSize)
            return $"a framed message (-s) is at most {Protocols.MaxFramedSize} bytes, the framing's limit, not {Size}";
        if (Seconds < 1)
            return $"the duration (-z) must be at least 1 second, not {Seconds}";
        if (Port is 0 && !UsesSocketFile)
            return "a client needs the server's port (-p), not 0";
        if (Authority is not null && string.IsNullOrWhiteSpace(Authority))
            return "the authority path (--ca) must not be empty";
        return base.Validate();
    }
}
