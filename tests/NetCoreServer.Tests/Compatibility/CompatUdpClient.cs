using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// A UDP client as NetCoreServer users write one (NetCoreServer's UdpEchoClient): ReceiveAsync in OnConnected and again
/// in OnReceived after each datagram; every hook overridden, the multicast hooks included.
/// </summary>
internal class CompatUdpClient : UdpClient
{
    public CompatUdpClient(IPAddress address, int port)
        : base(address, port)
    {
    }

    public CompatUdpClient(string address, int port)
        : base(address, port)
    {
    }

    public CompatUdpClient(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatUdpClient(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    /// <summary>Receive with the one-shot pattern (default true); false leaves receiving to the test (blocking Receive).</summary>
    public bool AutoReceive { get; init; } = true;

    /// <summary>The local port the client's socket is bound to.</summary>
    public int LocalPort => ((IPEndPoint)Socket.LocalEndPoint!).Port;

    protected override Socket CreateSocket() => new(Endpoint.AddressFamily, SocketType.Dgram, ProtocolType.Udp);

    protected override void OnConnecting() => Probe.Hook("OnConnecting");

    protected override void OnConnected()
    {
        Probe.Hook("OnConnected");
        if (AutoReceive)
            ReceiveAsync();
    }

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => Probe.Hook("OnDisconnected");

    protected override void OnJoinedMulticastGroup(IPAddress address) => Probe.Hook("OnJoinedMulticastGroup");

    protected override void OnLeftMulticastGroup(IPAddress address) => Probe.Hook("OnLeftMulticastGroup");

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        Probe.Datagram(buffer, offset, size);
        if (AutoReceive)
            ReceiveAsync();
    }

    protected override void OnSent(EndPoint endpoint, long sent) => Probe.Hook("OnSent");

    protected override void OnError(SocketError error) => Probe.Error("OnError", error);

    protected override void Dispose(bool disposingManagedResources) => base.Dispose(disposingManagedResources);
}
