using System.Linq;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>A Unix domain socket server as NetCoreServer users write one: both constructors, every server hook, both factories.</summary>
internal class CompatUdsServer : UdsServer
{
    public CompatUdsServer(string path)
        : base(path)
    {
    }

    public CompatUdsServer(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    /// <summary>The connected sessions, through the protected Sessions dictionary.</summary>
    public CompatUdsSession[] ConnectedSessionList() => Sessions.Values.Cast<CompatUdsSession>().ToArray();

    // NetCoreServer creates Unix sockets with ProtocolType.IP (0, the family's default protocol).
    protected override Socket CreateSocket() => new(Endpoint.AddressFamily, SocketType.Stream, ProtocolType.IP);

    protected override UdsSession CreateSession() => new CompatUdsSession(this);

    protected override void OnStarting() => Probe.Hook("server.OnStarting");

    protected override void OnStarted() => Probe.Hook("server.OnStarted");

    protected override void OnStopping() => Probe.Hook("server.OnStopping");

    protected override void OnStopped() => Probe.Hook("server.OnStopped");

    protected override void OnConnecting(UdsSession session) => Probe.Hook("server.OnConnecting");

    protected override void OnConnected(UdsSession session) => Probe.Hook("server.OnConnected");

    protected override void OnDisconnecting(UdsSession session) => Probe.Hook("server.OnDisconnecting");

    protected override void OnDisconnected(UdsSession session) => Probe.Hook("server.OnDisconnected");

    protected override void OnError(SocketError error) => Probe.Error("server.OnError", error);

    protected override void Dispose(bool disposingManagedResources) => base.Dispose(disposingManagedResources);
}
