using System.Net;
using System.Net.Sockets;

// The real clients the socket suite runs, one per transport, each forwarding its hooks to a TestClient; the hooks they
// share are in ProbeClientMembers.twin.cs.
namespace NetCoreServer.Tests.Support.ProbeClients;

/// <summary>A TCP client.</summary>
internal sealed partial class Tcp : TcpClient
{
    public Tcp(TestClient probe, IPEndPoint endpoint)
        : base(endpoint) => _probe = probe;
}

/// <summary>A TLS client.</summary>
internal sealed partial class Ssl : SslClient
{
    public Ssl(SslContext context, TestClient probe, IPEndPoint endpoint)
        : base(context, endpoint) => _probe = probe;

    protected override void OnHandshaking() => _probe.Hook("OnHandshaking");

    protected override void OnHandshaked() => _probe.Hook("OnHandshaked");
}

/// <summary>A Unix-socket client.</summary>
internal sealed partial class Uds : UdsClient
{
    public Uds(TestClient probe, UnixDomainSocketEndPoint endpoint)
        : base(endpoint) => _probe = probe;
}
