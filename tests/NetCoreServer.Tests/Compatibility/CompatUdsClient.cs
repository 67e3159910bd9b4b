using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>A Unix domain socket client as NetCoreServer users write one: both constructors, every hook, the socket factory.</summary>
internal class CompatUdsClient : UdsClient
{
    public CompatUdsClient(string path)
        : base(path)
    {
    }

    public CompatUdsClient(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    protected override Socket CreateSocket() => new(Endpoint.AddressFamily, SocketType.Stream, ProtocolType.IP);

    protected override void OnConnecting() => Probe.Hook("OnConnecting");

    protected override void OnConnected() => Probe.Hook("OnConnected");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => Probe.Hook("OnDisconnected");

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        Probe.Received(buffer, offset, size);
        Probe.Hook("OnReceived");
    }

    protected override void OnSent(long sent, long pending) => Probe.Hook("OnSent");

    protected override void OnEmpty() => Probe.Hook("OnEmpty");

    protected override void OnError(SocketError error) => Probe.Error("OnError", error);

    protected override void Dispose(bool disposingManagedResources) => base.Dispose(disposingManagedResources);
}
