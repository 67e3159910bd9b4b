using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>Options of the multicast benchmark server.</summary>
public sealed class MulticastServerOptions : ServerOptions
{
    /// <summary>Messages to multicast per second (<c>-m</c>); default 0, as fast as the sessions take them.</summary>
    [Option('m', "messages", Default = 0, HelpText = "Messages to multicast per second (0 = as fast as the sessions take them).")]
    public int Messages { get; set; }

    /// <summary>Size of one message in bytes (<c>-s</c>); default 32.</summary>
    [Option('s', "size", Default = 32, HelpText = "Single message size in bytes.")]
    public int Size { get; set; } = 32;

    /// <summary>
    /// The group to multicast to over udp (<c>--group</c>); default 239.255.0.1. The port is <c>-p</c> (default 3334 for
    /// udp); the server's own socket binds <c>-a</c> on a port the system picks.
    /// </summary>
    [Option("group", Default = Protocols.DefaultMulticastGroup, HelpText = "udp: the multicast group to send to (default 239.255.0.1; port -p, default 3334).")]
    public string Group { get; set; } = Protocols.DefaultMulticastGroup;

    /// <inheritdoc />
    protected override int DefaultPortFor(string protocol) => Protocols.DefaultMulticastPortFor(protocol);

    /// <inheritdoc />
    public override string? Validate()
    {
        if (Messages < 0)
            return $"the message rate (-m) must not be negative, not {Messages}";
        if (Size < 1)
            return $"the message size (-s) must be at least 1, not {Size}";
        if (Protocols.IsDatagram(Protocol) && Size > Protocols.MaxDatagramSize)
            return $"a udp message (-s) is one datagram, at most {Protocols.MaxDatagramSize} bytes, not {Size}";
        if (Protocols.IsFramed(Protocol) && Size > Protocols.MaxFramedSize)
            return $"a framed message (-s) is at most {Protocols.MaxFramedSize} bytes, the framing's limit, not {Size}";
        if (Protocols.IsDatagram(Protocol) && Protocols.CheckMulticastGroup(Group) is { } problem)
            return problem;
        return base.Validate();
    }
}
