using System.Net;
using System.Net.Sockets;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>A TCP client as NetCoreServer users write one: every constructor chained, every client hook overridden, the socket factory replaced.</summary>
internal class CompatTcpClient : TcpClient
{
    public CompatTcpClient(IPAddress address, int port)
        : base(address, port)
    {
    }

    public CompatTcpClient(string address, int port)
        : base(address, port)
    {
    }

    public CompatTcpClient(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatTcpClient(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    public Counter SocketsCreated { get; } = new();

    protected override Socket CreateSocket()
    {
        SocketsCreated.Add(1);
        return new Socket(Endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
    }

    /// <summary>The <see cref="TcpClient.Socket"/> seen by the last OnConnecting (NetCoreServer sets it before the hook).</summary>
    public Socket? SocketInOnConnecting { get; private set; }

    /// <summary>Whether that socket was already connected when OnConnecting ran.</summary>
    public bool ConnectedInOnConnecting { get; private set; }

    protected override void OnConnecting()
    {
        SocketInOnConnecting = Socket;
        ConnectedInOnConnecting = Socket?.Connected ?? false;
        Probe.Hook("OnConnecting");
    }

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
