namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// A receiving end of the multicast over WebSocket; its send queue is capped by the <see cref="MulticastPump"/>. Its
/// hooks are in MulticastWsSessionMembers.twin.cs.
/// </summary>
internal sealed partial class MulticastWsSession : WsSession
{
    public MulticastWsSession(WsServer server, MulticastPump pump)
        : base(server)
    {
        _pump = pump;
        OptionSendBufferLimit = pump.SendBufferLimit;
    }
}
