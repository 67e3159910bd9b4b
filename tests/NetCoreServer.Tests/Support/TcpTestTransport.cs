using System.Net;

namespace NetCoreServer.Tests.Support;

/// <summary>Plain TCP.</summary>
internal sealed class TcpTestTransport : TestTransport
{
    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new ProbeServers.Tcp(probe, address);

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint) => new ProbeClients.Tcp(probe, (IPEndPoint)endpoint);

    public override string ToString() => "tcp";
}
