using System.Net;

namespace NetCoreServer.Redis.Tests;

/// <summary>The node's server: line framing, sessions that take the group commands.</summary>
internal sealed class LineServer : TcpServer
{
    public LineServer()
        : base(IPAddress.Loopback, 0)
        => Framing = MessageFraming.Lines();

    public RedisBackplane? Backplane { get; set; }

    protected override TcpSession CreateSession() => new LineSession(this);
}
