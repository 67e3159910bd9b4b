using System.Net;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>The library's echo server on a free loopback port.</summary>
internal sealed class LoopbackEchoServer() : TcpServer(IPAddress.Loopback, 0)
{
    protected override TcpSession CreateSession() => new EchoSession(this);
}
