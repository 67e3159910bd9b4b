using Microsoft.Extensions.Logging;

namespace NetCoreServer.Hosting;

/// <summary>The event ids of a hosted server's lifecycle, the same for stream and UDP servers (docs/guides/hosting.md).</summary>
internal static class HostingEvents
{
    public static readonly EventId Started = new(1, "SessionServerStarted");
    public static readonly EventId StartFailed = new(2, "SessionServerStartFailed");
    public static readonly EventId Draining = new(3, "SessionServerDraining");
    public static readonly EventId Stopped = new(4, "SessionServerStopped");
}
