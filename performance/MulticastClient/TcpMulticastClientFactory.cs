using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>The tcp multicast client.</summary>
internal sealed class TcpMulticastClientFactory : IBenchmarkClientFactory<ClientOptions>
{
    public IBenchmarkClient Create(ClientOptions options, ConnectionMeter meter) => new MulticastTcpClient(options.Address, options.ResolvedPort, meter);
}
