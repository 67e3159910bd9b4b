using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// A UDP server driven by a <see cref="MulticastPump"/> that sends each message once, to the group. There are no
/// sessions: the pump always has its one receiver, the group, and waits for the send queue when it is full. It
/// sends out of the loopback interface only, and its factory refuses to run outside a private network namespace.
/// </summary>
internal sealed class MulticastUdpServer : UdpServer, IBenchmarkServer
{
    private readonly MulticastPump _pump;
    private readonly IPEndPoint _group;

    public MulticastUdpServer(string address, IPEndPoint group, int rate, int size)
        : base(address, 0)
    {
        _group = group;
        _pump = new MulticastPump(() => 1, MulticastAsync, rate, size);
        OptionSendBufferLimit = _pump.SendBufferLimit;
        OptionMulticastInterface = IPAddress.Loopback;
    }

    string IBenchmarkServer.ListeningOn => $"{Endpoint}, multicasting to {_group}";

    bool IBenchmarkServer.Start() => _pump.StartWith(() => Start(_group));

    bool IBenchmarkServer.Stop() => _pump.StopWith(Stop);

    protected override void OnSent(EndPoint endpoint, long sent) => _pump.SessionSent();

    protected override void OnError(SocketError error) => _pump.SessionError(Id, error);

    protected override void Dispose(bool disposingManagedResources)
    {
        base.Dispose(disposingManagedResources);
        if (disposingManagedResources)
            _pump.Dispose();
    }
}
