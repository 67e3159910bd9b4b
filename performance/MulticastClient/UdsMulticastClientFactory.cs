using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>The uds multicast client, connecting to the socket file of <c>--path</c>.</summary>
internal sealed class UdsMulticastClientFactory : IBenchmarkClientFactory<ClientOptions>
{
    public IBenchmarkClient Create(ClientOptions options, ConnectionMeter meter) => new MulticastUdsClient(options.ResolvedPath, meter);
}
