using System.Net;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>The udp multicast client, joining <c>--group</c>:<c>-p</c>; only where lo is the only interface (see <see cref="UnsafeNetworkException.ThrowIfNotPrivate"/>).</summary>
internal sealed class UdpMulticastClientFactory : IBenchmarkClientFactory<MulticastClientOptions>
{
    public IBenchmarkClient Create(MulticastClientOptions options, ConnectionMeter meter)
    {
        UnsafeNetworkException.ThrowIfNotPrivate("udp multicast");
        return new MulticastUdpClient(IPAddress.Parse(options.Group), options.ResolvedPort, meter);
    }
}
