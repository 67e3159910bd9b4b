using System.Linq;
using System.Net;
using System.Threading;

namespace NetCoreServer.Redis.Tests;

/// <summary>
/// A WsServer that counts its sessions' OnWsConnected. A client sees the 101 before the server has the session among
/// the upgraded ones, so a test that multicasts right after connecting waits for this count first.
/// </summary>
internal sealed class UpgradeCountingWsServer() : WsServer(IPAddress.Loopback, 0)
{
    private int _upgraded;

    public int Upgraded => Volatile.Read(ref _upgraded);

    public StreamSession[] All => Sessions.Values.ToArray<StreamSession>();

    protected override TcpSession CreateSession() => new Session(this);

    private sealed class Session(UpgradeCountingWsServer server) : WsSession(server)
    {
        public override void OnWsConnected(HttpRequest request) => Interlocked.Increment(ref server._upgraded);
    }
}

/// <summary>The TLS twin of <see cref="UpgradeCountingWsServer"/>.</summary>
internal sealed class UpgradeCountingWssServer(SslContext context) : WssServer(context, IPAddress.Loopback, 0)
{
    private int _upgraded;

    public int Upgraded => Volatile.Read(ref _upgraded);

    protected override SslSession CreateSession() => new Session(this);

    private sealed class Session(UpgradeCountingWssServer server) : WssSession(server)
    {
        public override void OnWsConnected(HttpRequest request) => Interlocked.Increment(ref server._upgraded);
    }
}
