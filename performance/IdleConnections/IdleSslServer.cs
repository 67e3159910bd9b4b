using System.Net;
using System.Threading;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>An <see cref="SslServer"/> on 127.0.0.1, port 0, with default <see cref="SslSession"/>s, counting them as their handshakes complete.</summary>
internal sealed class IdleSslServer(SslContext context) : SslServer(context, IPAddress.Loopback, 0), IIdleServer
{
    private long _ready;

    public long ReadySessions => Interlocked.Read(ref _ready);

    public int BoundPort => ((IPEndPoint)Endpoint).Port;

    protected override void OnHandshaked(SslSession session) => Interlocked.Increment(ref _ready);
}
