// The sessions of the probe servers, one per transport; the hooks they share are in ProbeSessionMembers.twin.cs.
namespace NetCoreServer.Tests.Support.ProbeSessions;

/// <summary>A TCP session forwarding its hooks to a TestSession.</summary>
internal sealed partial class Tcp : TcpSession;

/// <summary>A TLS session forwarding its hooks, the handshake's too, to a TestSession.</summary>
internal sealed partial class Ssl : SslSession
{
    protected override void OnHandshaking() => _probe.Hook("OnHandshaking");

    protected override void OnHandshaked() => _probe.Hook("OnHandshaked");
}

/// <summary>A Unix-socket session forwarding its hooks to a TestSession.</summary>
internal sealed partial class Uds : UdsSession;
