using System.Linq;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>A TLS server as NetCoreServer users write one: every constructor, every hook including the handshake hooks.</summary>
internal class CompatSslServer : SslServer
{
    public CompatSslServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
    }

    public CompatSslServer(SslContext context, string address, int port)
        : base(context, address, port)
    {
    }

    public CompatSslServer(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    public CompatSslServer(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    public CompatProbe Probe { get; } = new();

    /// <summary>The connected sessions, through the protected Sessions dictionary.</summary>
    public CompatSslSession[] ConnectedSessionList() => Sessions.Values.Cast<CompatSslSession>().ToArray();

    protected override Socket CreateSocket() => new(Endpoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);

    protected override SslSession CreateSession() => new CompatSslSession(this);

    protected override void OnStarting() => Probe.Hook("server.OnStarting");

    protected override void OnStarted() => Probe.Hook("server.OnStarted");

    protected override void OnStopping() => Probe.Hook("server.OnStopping");

    protected override void OnStopped() => Probe.Hook("server.OnStopped");

    protected override void OnConnecting(SslSession session) => Probe.Hook("server.OnConnecting");

    protected override void OnConnected(SslSession session) => Probe.Hook("server.OnConnected");

    protected override void OnHandshaking(SslSession session) => Probe.Hook("server.OnHandshaking");

    protected override void OnHandshaked(SslSession session) => Probe.Hook("server.OnHandshaked");

    protected override void OnDisconnecting(SslSession session) => Probe.Hook("server.OnDisconnecting");

    protected override void OnDisconnected(SslSession session) => Probe.Hook("server.OnDisconnected");

    protected override void OnError(SocketError error) => Probe.Error("server.OnError", error);

    protected override void Dispose(bool disposingManagedResources) => base.Dispose(disposingManagedResources);
}
