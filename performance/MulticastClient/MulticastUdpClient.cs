using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Joins the multicast group on the loopback interface and counts what it receives. Its socket shares the group's
/// port with the other clients; it counts as connected once it has joined.
/// </summary>
internal sealed class MulticastUdpClient : UdpClient, IBenchmarkClient
{
    // A burst from a server sending as fast as it can must fit; the kernel drops what does not.
    private const int KernelBufferSize = 4 * 1024 * 1024;

    private readonly IPAddress _group;
    private readonly ConnectionMeter _meter;

    public MulticastUdpClient(IPAddress group, int port, ConnectionMeter meter)
        : base(group, port)
    {
        _group = group;
        _meter = meter;
        SetupMulticast(true);
        OptionMulticastInterface = IPAddress.Loopback;
        OptionReceiveBufferSize = KernelBufferSize;
        OptionContinuousReceive = true;
    }

    bool IBenchmarkClient.StartConnecting() => Connect();

    Task IBenchmarkClient.StopAsync()
    {
        Disconnect();
        return Task.CompletedTask;
    }

    protected override void OnConnected()
    {
        try
        {
            JoinMulticastGroup(_group);
        }
        catch (SocketException)
        {
            _meter.Error();
            _meter.ConnectFailed();
            return;
        }
        _meter.Connected();
    }

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size) => _meter.Received(size);

    protected override void OnDisconnected() => _meter.Disconnected();

    protected override void OnError(SocketError error) => _meter.Error();
}
