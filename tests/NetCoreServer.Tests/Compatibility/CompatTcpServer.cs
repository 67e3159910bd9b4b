using System.Linq;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// A TCP server written the way NetCoreServer users write one: every constructor chained, every server hook
/// overridden with NetCoreServer's signature, the session factory and the socket factory replaced, the protected
/// Sessions dictionary read. If our API drifts from NetCoreServer's, this file stops compiling.
/// </summary>
internal class CompatTcpServer : TcpServer
{
    public CompatTcpServer(IPAddress address, int port)
        : base(address, port)
    {
    }

    public CompatTcpServer(string address, int port)
        : base(address, port)
    {
    }

    public CompatTcpServer(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatTcpServer(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    public Counter SocketsCreated { get; } = new();

    /// <summary>The connected sessions, read as NetCoreServer subclasses do: through the protected Sessions dictionary.</summary>
    public CompatTcpSession[] ConnectedSessionList() => Sessions.Values.Cast<CompatTcpSession>().ToArray();

    protected override Socket CreateSocket()
    {
        SocketsCreated.Add(1);
        return new Socket(Endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
    }

    protected override TcpSession CreateSession() => new CompatTcpSession(this);

    protected override void OnStarting() => Probe.Hook("server.OnStarting");

    protected override void OnStarted() => Probe.Hook("server.OnStarted");

    protected override void OnStopping() => Probe.Hook("server.OnStopping");

    protected override void OnStopped() => Probe.Hook("server.OnStopped");

    protected override void OnConnecting(TcpSession session) => Probe.Hook("server.OnConnecting");

    protected override void OnConnected(TcpSession session) => Probe.Hook("server.OnConnected");

    protected override void OnDisconnecting(TcpSession session) => Probe.Hook("server.OnDisconnecting");

    protected override void OnDisconnected(TcpSession session) => Probe.Hook("server.OnDisconnected");

    protected override void OnError(SocketError error) => Probe.Error("server.OnError", error);

    protected override void Dispose(bool disposingManagedResources) => base.Dispose(disposingManagedResources);
}
