using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// A UDP server as NetCoreServer users write one, with the echo of NetCoreServer's UdpEchoServer: ReceiveAsync in
/// OnStarted, <c>SendAsync(endpoint, buffer, 0, size)</c> in OnReceived (NetCoreServer delivers datagrams at offset 0),
/// and the next ReceiveAsync once the echo is sent (OnSent) or, with <see cref="RearmFromReceived"/>, from OnReceived.
/// </summary>
internal class CompatUdpServer : UdpServer
{
    public CompatUdpServer(IPAddress address, int port)
        : base(address, port)
    {
    }

    public CompatUdpServer(string address, int port)
        : base(address, port)
    {
    }

    public CompatUdpServer(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatUdpServer(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    /// <summary>Receive and echo with the one-shot pattern (default true); false leaves receiving to the test (blocking Receive).</summary>
    public bool Echo { get; init; } = true;

    /// <summary>Ask for the next datagram from OnReceived instead of OnSent.</summary>
    public bool RearmFromReceived { get; init; }

    /// <summary>The bound port, read as NetCoreServer 8 users do (Endpoint is an EndPoint).</summary>
    public int BoundPort => ((IPEndPoint)Endpoint).Port;

    protected override Socket CreateSocket() => new(Endpoint.AddressFamily, SocketType.Dgram, ProtocolType.Udp);

    protected override void OnStarting() => Probe.Hook("OnStarting");

    protected override void OnStarted()
    {
        Probe.Hook("OnStarted");
        if (Echo)
            ReceiveAsync();
    }

    protected override void OnStopping() => Probe.Hook("OnStopping");

    protected override void OnStopped() => Probe.Hook("OnStopped");

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        Probe.Datagram(buffer, offset, size);
        if (!Echo)
            return;
        SendAsync(endpoint, buffer, 0, size);
        if (RearmFromReceived)
            ReceiveAsync();
    }

    protected override void OnSent(EndPoint endpoint, long sent)
    {
        Probe.Hook("OnSent");
        if (Echo && !RearmFromReceived)
            ReceiveAsync();
    }

    protected override void OnError(SocketError error) => Probe.Error("OnError", error);

    protected override void Dispose(bool disposingManagedResources) => base.Dispose(disposingManagedResources);
}
