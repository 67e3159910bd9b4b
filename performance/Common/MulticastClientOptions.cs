using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>Options of the multicast benchmark client.</summary>
public sealed class MulticastClientOptions : ClientOptions
{
    /// <summary>The group to join over udp (<c>--group</c>); default 239.255.0.1. The port is <c>-p</c> (default 3334 for udp).</summary>
    [Option("group", Default = Protocols.DefaultMulticastGroup, HelpText = "udp: the multicast group to join (default 239.255.0.1; port -p, default 3334).")]
    public string Group { get; set; } = Protocols.DefaultMulticastGroup;

    /// <inheritdoc />
    protected override int DefaultPortFor(string protocol) => Protocols.DefaultMulticastPortFor(protocol);

    /// <inheritdoc />
    public override string? Validate()
    {
        if (Protocols.IsDatagram(Protocol) && Protocols.CheckMulticastGroup(Group) is { } problem)
            return problem;
        return base.Validate();
    }
}
