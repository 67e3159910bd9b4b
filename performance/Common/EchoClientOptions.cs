using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>Options of the echo benchmark client.</summary>
public sealed class EchoClientOptions : ClientOptions
{
    /// <summary>Messages each client keeps in flight (<c>-m</c>); default 1000.</summary>
    [Option('m', "messages", Default = 1000, HelpText = "Count of messages in flight per client.")]
    public int Messages { get; set; } = 1000;

    /// <inheritdoc />
    public override int? ReportedMessages => Messages;

    /// <inheritdoc />
    public override bool ReportsLoss => Protocols.IsDatagram(Protocol);

    /// <inheritdoc />
    public override string? Validate()
    {
        if (Messages < 1)
            return $"the messages in flight (-m) must be at least 1, not {Messages}";
        if ((long)Messages * Size > int.MaxValue)
            return $"messages in flight times message size ({(long)Messages * Size} bytes) must fit in 2 GiB";
        return base.Validate();
    }
}
