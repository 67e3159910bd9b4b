using System;
using System.IO;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Support;

/// <summary>Unix domain sockets, each server on a unique temporary path; with event loops, served by the library's own epoll loops.</summary>
internal sealed class UdsTestTransport(bool pool = false) : TestTransport
{
    public static string NewPath() => Path.Combine(Path.GetTempPath(), "ncs-" + Guid.NewGuid().ToString("N")[..12] + ".sock");

    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new ProbeServers.Uds(probe, NewPath()).OnEngine(pool);

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint) => new ProbeClients.Uds(probe, (UnixDomainSocketEndPoint)endpoint);

    public override bool IsUnix => true;

    public override string ToString() => pool ? "uds-pool" : "uds";
}
