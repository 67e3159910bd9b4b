namespace NetCoreServer.Diagnostics;

/// <summary>
/// A server that publishes instruments: how a protocol on one of its sessions finds them, through the engine's owner,
/// without naming the server class above it.
/// </summary>
internal interface IMetricsOwner
{
    /// <summary>The server's instruments while it runs, else null.</summary>
    ServerMetrics? Metrics { get; }
}
