using System.Net.Sockets;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>A receiving end of the multicast over TLS; its send queue is capped by the <see cref="MulticastPump"/>.</summary>
internal sealed class MulticastSslSession : SslSession
{
    private readonly MulticastPump _pump;

    public MulticastSslSession(SslServer server, MulticastPump pump)
        : base(server)
    {
        _pump = pump;
        OptionSendBufferLimit = pump.SendBufferLimit;
    }

    protected override void OnSent(long sent, long pending) => _pump.SessionSent();

    protected override void OnError(SocketError error) => _pump.SessionError(Id, error);
}
