using System.Net;

namespace NetCoreServer.Tests.Support;

/// <summary>Plain TCP; with event loops, the server's sessions are served by the library's own epoll loops (OptionEventLoops).</summary>
internal sealed class TcpTestTransport(int eventLoops = 0) : TestTransport
{
    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new ProbeServers.Tcp(probe, address) { OptionEventLoops = eventLoops };

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint) => new ProbeClients.Tcp(probe, (IPEndPoint)endpoint);

    public override string ToString() => eventLoops > 0 ? "tcp-loops" : "tcp";
}
