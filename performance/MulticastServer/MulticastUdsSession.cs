using System.Net.Sockets;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>A receiving end of the multicast over a Unix domain socket; its send queue is capped by the <see cref="MulticastPump"/>.</summary>
internal sealed class MulticastUdsSession : UdsSession
{
    private readonly MulticastPump _pump;

    public MulticastUdsSession(UdsServer server, MulticastPump pump)
        : base(server)
    {
        _pump = pump;
        OptionSendBufferLimit = pump.SendBufferLimit;
    }

    protected override void OnSent(long sent, long pending) => _pump.SessionSent();

    protected override void OnError(SocketError error) => _pump.SessionError(Id, error);
}
