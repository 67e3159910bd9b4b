using System.Net.Sockets;

// The sessions of the probe servers, one per transport, each forwarding its hooks to a TestSession (one line each).
namespace NetCoreServer.Tests.Support.ProbeSessions;

/// <summary>A TCP session forwarding its hooks to a TestSession.</summary>
internal sealed class Tcp : TcpSession
{
    private readonly TestSession _probe;

    public Tcp(TcpServer server, TestServer probe)
        : base(server) => _probe = probe.NewSession(this);

    protected override void OnConnecting() => _probe.Hook("OnConnecting");

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnEmpty() => _probe.Hook("OnEmpty");

    protected override void OnWritabilityChanged(bool writable) => _probe.Hook("OnWritabilityChanged " + writable);

    protected override void OnSent(long sent, long pending) => _probe.Hook("OnSent");

    protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.Received(buffer, offset, size);

    protected override void OnDisconnecting() => _probe.Disconnecting();

    protected override void OnDisconnected() => _probe.Disconnected();

    protected override void OnError(SocketError error) => _probe.Error(error);

    protected override void OnSlowConsumer() => _probe.SlowConsumer();
}

/// <summary>A TLS session forwarding its hooks, the handshake's too, to a TestSession.</summary>
internal sealed class Ssl : SslSession
{
    protected override void OnHandshaking() => _probe.Hook("OnHandshaking");

    protected override void OnHandshaked() => _probe.Hook("OnHandshaked");

    private readonly TestSession _probe;

    public Ssl(SslServer server, TestServer probe)
        : base(server) => _probe = probe.NewSession(this);

    protected override void OnConnecting() => _probe.Hook("OnConnecting");

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnEmpty() => _probe.Hook("OnEmpty");

    protected override void OnWritabilityChanged(bool writable) => _probe.Hook("OnWritabilityChanged " + writable);

    protected override void OnSent(long sent, long pending) => _probe.Hook("OnSent");

    protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.Received(buffer, offset, size);

    protected override void OnDisconnecting() => _probe.Disconnecting();

    protected override void OnDisconnected() => _probe.Disconnected();

    protected override void OnError(SocketError error) => _probe.Error(error);

    protected override void OnSlowConsumer() => _probe.SlowConsumer();
}

/// <summary>A Unix-socket session forwarding its hooks to a TestSession.</summary>
internal sealed class Uds : UdsSession
{
    private readonly TestSession _probe;

    public Uds(UdsServer server, TestServer probe)
        : base(server) => _probe = probe.NewSession(this);

    protected override void OnConnecting() => _probe.Hook("OnConnecting");

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnEmpty() => _probe.Hook("OnEmpty");

    protected override void OnWritabilityChanged(bool writable) => _probe.Hook("OnWritabilityChanged " + writable);

    protected override void OnSent(long sent, long pending) => _probe.Hook("OnSent");

    protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.Received(buffer, offset, size);

    protected override void OnDisconnecting() => _probe.Disconnecting();

    protected override void OnDisconnected() => _probe.Disconnected();

    protected override void OnError(SocketError error) => _probe.Error(error);

    protected override void OnSlowConsumer() => _probe.SlowConsumer();
}
