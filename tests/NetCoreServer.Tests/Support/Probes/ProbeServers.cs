using System.Net;

// The real servers the socket suite runs, one per transport, each forwarding its hooks to a TestServer. The hooks they
// share are in ProbeServerMembers.twin.cs (tools/NetCoreServer.Generators): C# cannot share overrides across the
// sibling bases TcpServer, SslServer and UdsServer, and the suite must run those classes themselves.
namespace NetCoreServer.Tests.Support.ProbeServers;

/// <summary>A TCP server on a free loopback port.</summary>
internal sealed partial class Tcp : TcpServer, IServerControl
{
    public Tcp(TestServer probe, IPAddress address)
        : base(address, 0) => _probe = probe;
}

/// <summary>A TLS server on a free loopback port; tests may change its context while it runs.</summary>
internal sealed partial class Ssl : SslServer, IServerControl
{
    public Ssl(SslContext context, TestServer probe, IPAddress address)
        : base(context, address, 0) => _probe = probe;

    protected override void OnHandshaking(SslSession session) => _probe.ServerHook("OnHandshaking");

    protected override void OnHandshaked(SslSession session) => _probe.ServerHook("OnHandshaked");
}

/// <summary>A Unix-socket server on its own temporary path.</summary>
internal sealed partial class Uds : UdsServer, IServerControl
{
    public Uds(TestServer probe, string path)
        : base(path) => _probe = probe;
}
