namespace NetCoreServer.Performance.Benchmarks;

/// <summary>Sends every received chunk back.</summary>
internal sealed class EchoSession(TcpServer server) : TcpSession(server)
{
    protected override void OnReceived(byte[] buffer, long offset, long size) => SendAsync(buffer, offset, size);
}
