using System.Net.Sockets;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>A receiving end of the multicast over secure WebSocket; its send queue is capped by the <see cref="MulticastPump"/>.</summary>
internal sealed class MulticastWssSession : WssSession
{
    private readonly MulticastPump _pump;

    public MulticastWssSession(WssServer server, MulticastPump pump)
        : base(server)
    {
        _pump = pump;
        OptionSendBufferLimit = pump.SendBufferLimit;
    }

    // The pump wakes up when the first session can take messages: after its upgrade.
    public override void OnWsConnected(HttpRequest request) => _pump.SessionArrived();

    protected override void OnSent(long sent, long pending) => _pump.SessionSent();

    protected override void OnError(SocketError error) => _pump.SessionError(Id, error);
}
