using System.Net;

namespace NetCoreServer.Tests.Support;

/// <summary>Plain TCP on the default engine, or with the server's sessions on the runtime's thread pool.</summary>
internal sealed class TcpTestTransport(bool pool = false) : TestTransport
{
    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new ProbeServers.Tcp(probe, address).OnEngine(pool);

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint) => new ProbeClients.Tcp(probe, (IPEndPoint)endpoint);

    public override string ToString() => pool ? "tcp-pool" : "tcp";
}
