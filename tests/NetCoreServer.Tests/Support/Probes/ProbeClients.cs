using System.Net;
using System.Net.Sockets;

// The real clients the socket suite runs, one per transport, each forwarding its hooks to a TestClient; the hooks are
// one-line forwards, repeated per class because TcpClient, SslClient and UdsClient are sibling bases.
namespace NetCoreServer.Tests.Support.ProbeClients;

/// <summary>A TCP client.</summary>
internal sealed class Tcp : TcpClient
{
    public Tcp(TestClient probe, IPEndPoint endpoint)
        : base(endpoint) => _probe = probe;

    private readonly TestClient _probe;

    protected override void OnConnecting() => _probe.Hook("OnConnecting");

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnEmpty() => _probe.Hook("OnEmpty");

    protected override void OnSent(long sent, long pending) => _probe.Sent();

    protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.ReceivedData(buffer, offset, size);

    protected override void OnDisconnecting() => _probe.Disconnecting();

    protected override void OnDisconnected() => _probe.Disconnected();

    protected override void OnError(SocketError error) => _probe.Error(error);
}

/// <summary>A TLS client.</summary>
internal sealed class Ssl : SslClient
{
    public Ssl(SslContext context, TestClient probe, IPEndPoint endpoint)
        : base(context, endpoint) => _probe = probe;

    protected override void OnHandshaking() => _probe.Hook("OnHandshaking");

    protected override void OnHandshaked() => _probe.Hook("OnHandshaked");

    private readonly TestClient _probe;

    protected override void OnConnecting() => _probe.Hook("OnConnecting");

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnEmpty() => _probe.Hook("OnEmpty");

    protected override void OnSent(long sent, long pending) => _probe.Sent();

    protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.ReceivedData(buffer, offset, size);

    protected override void OnDisconnecting() => _probe.Disconnecting();

    protected override void OnDisconnected() => _probe.Disconnected();

    protected override void OnError(SocketError error) => _probe.Error(error);
}

/// <summary>A Unix-socket client.</summary>
internal sealed class Uds : UdsClient
{
    public Uds(TestClient probe, UnixDomainSocketEndPoint endpoint)
        : base(endpoint) => _probe = probe;

    private readonly TestClient _probe;

    protected override void OnConnecting() => _probe.Hook("OnConnecting");

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnEmpty() => _probe.Hook("OnEmpty");

    protected override void OnSent(long sent, long pending) => _probe.Sent();

    protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.ReceivedData(buffer, offset, size);

    protected override void OnDisconnecting() => _probe.Disconnecting();

    protected override void OnDisconnected() => _probe.Disconnected();

    protected override void OnError(SocketError error) => _probe.Error(error);
}
