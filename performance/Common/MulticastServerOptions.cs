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

    /// <inheritdoc />
    public override string? Validate()
    {
        if (Messages < 0)
            return $"the message rate (-m) must not be negative, not {Messages}";
        if (Size < 1)
            return $"the message size (-s) must be at least 1, not {Size}";
        return base.Validate();
    }
}
