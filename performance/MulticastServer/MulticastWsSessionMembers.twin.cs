using System.Net.Sockets;

// twin: NetCoreServer.Performance.MulticastServer.MulticastWsSession NetCoreServer.Performance.MulticastServer.MulticastWssSession
    private readonly MulticastPump _pump;

    // The pump wakes up when the first session can take messages: after its upgrade, not at its connect.
    public override void OnWsConnected(HttpRequest request) => _pump.SessionArrived();

    protected override void OnSent(long sent, long pending) => _pump.SessionSent();

    protected override void OnError(SocketError error) => _pump.SessionError(Id, error);
