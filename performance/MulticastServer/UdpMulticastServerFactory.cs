using System.Net;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>The udp multicast server, sending to <c>--group</c>:<c>-p</c>; only where lo is the only interface (see <see cref="UnsafeNetworkException.ThrowIfNotPrivate"/>).</summary>
internal sealed class UdpMulticastServerFactory : IBenchmarkServerFactory<MulticastServerOptions>
{
    public IBenchmarkServer Create(MulticastServerOptions options)
    {
        UnsafeNetworkException.ThrowIfNotPrivate("udp multicast");
        var group = new IPEndPoint(IPAddress.Parse(options.Group), options.ResolvedPort);
        return new MulticastUdpServer(options.Address, group, options.Messages, options.Size);
    }
}
