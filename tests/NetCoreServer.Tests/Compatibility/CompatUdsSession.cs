using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>A Unix domain socket session as NetCoreServer users write one: every hook, echo from OnReceived.</summary>
internal class CompatUdsSession : UdsSession
{
    public CompatUdsSession(UdsServer server)
        : base(server)
    {
        OptionReceiveBufferSize = 8192;
        OptionSendBufferSize = 8192;
        OptionReceiveBufferLimit = 1 << 20;
        OptionSendBufferLimit = 16 << 20;
    }

    private CompatProbe Probe => ((CompatUdsServer)Server).Probe;

    protected override void OnConnecting() => Probe.Hook("session.OnConnecting");

    protected override void OnConnected() => Probe.Hook("session.OnConnected");

    protected override void OnDisconnecting() => Probe.Hook("session.OnDisconnecting");

    protected override void OnDisconnected() => Probe.Hook("session.OnDisconnected");

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        Probe.Hook("session.OnReceived");
        SendAsync(buffer, offset, size);
    }

    protected override void OnSent(long sent, long pending) => Probe.Hook("session.OnSent");

    protected override void OnEmpty() => Probe.Hook("session.OnEmpty");

    protected override void OnError(SocketError error) => Probe.Error("session.OnError", error);

    protected override void Dispose(bool disposingManagedResources) => base.Dispose(disposingManagedResources);
}
