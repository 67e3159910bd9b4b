using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Reliability;

/// <summary>The stream transports the reliability fixtures run over (IPv4 loopback; the address family changes nothing here).</summary>
internal static class ReliabilityTransports
{
    public static readonly object[] All = { TestTransport.Tcp, TestTransport.Ssl, TestTransport.Uds, TestTransport.TcpPool, TestTransport.SslPool, TestTransport.UdsPool };
}
