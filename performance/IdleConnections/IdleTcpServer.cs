using System.Net;
using System.Threading;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>A <see cref="TcpServer"/> on 127.0.0.1, port 0, with default <see cref="TcpSession"/>s, counting them as they connect.</summary>
internal sealed class IdleTcpServer() : TcpServer(IPAddress.Loopback, 0), IIdleServer
{
    private long _ready;

    public long ReadySessions => Interlocked.Read(ref _ready);

    public int BoundPort => ((IPEndPoint)Endpoint).Port;

    protected override void OnConnected(TcpSession session) => Interlocked.Increment(ref _ready);
}
