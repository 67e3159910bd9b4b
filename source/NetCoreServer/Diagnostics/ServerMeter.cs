namespace NetCoreServer;

/// <summary>
/// The name of the library's <see cref="System.Diagnostics.Metrics.Meter"/>: give it to <c>dotnet-counters --counters</c>
/// or OpenTelemetry's <c>AddMeter</c>. Instruments, units and tags: docs/guides/metrics.md.
/// </summary>
public static class ServerMeter
{
    /// <summary>"NetCoreServer": every server's instruments (<c>netcoreserver.*</c> and <c>http.server.request.duration</c>).</summary>
    public const string Name = "NetCoreServer";
}
