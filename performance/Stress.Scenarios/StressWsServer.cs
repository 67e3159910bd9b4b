using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Stress;

/// <summary>A WebSocket server whose <see cref="IStressServer.Multicast"/> sends one binary message to every upgraded session.</summary>
internal sealed class StressWsServer(bool echo) : WsServer(IPAddress.Loopback, 0), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    bool IStressServer.Multicast(byte[] buffer) => MulticastBinary(buffer);

    protected override TcpSession CreateSession() => new Session(this, new StressSessionHooks(Counters));

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(WsServer server, StressSessionHooks hooks) : WsSession(server)
    {
        public override void OnWsConnected(HttpRequest request) => hooks.Connected(this);

        protected override void OnError(SocketError error) => hooks.Error(error);

        protected override void OnSlowConsumer() => hooks.SlowConsumer();

        protected override void OnDisconnected() => hooks.DisconnectedIfUpgraded(DisconnectReason);
    }
}
