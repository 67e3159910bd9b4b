using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// A TCP session as NetCoreServer users write one: options set in the constructor, every session hook overridden
/// with NetCoreServer's signature, and the echo of NetCoreServer's TcpEchoServer (<c>SendAsync(buffer, offset, size)</c>
/// from OnReceived).
/// </summary>
internal class CompatTcpSession : TcpSession
{
    public CompatTcpSession(TcpServer server)
        : base(server)
    {
        OptionReceiveBufferSize = 8192;
        OptionSendBufferSize = 8192;
        OptionReceiveBufferLimit = 1 << 20;
        OptionSendBufferLimit = 16 << 20;
    }

    private CompatProbe Probe => ((CompatTcpServer)Server).Probe;

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
