using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>A TLS client as NetCoreServer users write one: every constructor, every hook including the handshake hooks.</summary>
internal class CompatSslClient : SslClient
{
    public CompatSslClient(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
    }

    public CompatSslClient(SslContext context, string address, int port)
        : base(context, address, port)
    {
    }

    public CompatSslClient(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    public CompatSslClient(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    protected override Socket CreateSocket() => new(Endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);

    protected override void OnConnecting() => Probe.Hook("OnConnecting");

    protected override void OnConnected() => Probe.Hook("OnConnected");

    protected override void OnHandshaking() => Probe.Hook("OnHandshaking");

    protected override void OnHandshaked() => Probe.Hook("OnHandshaked");

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
