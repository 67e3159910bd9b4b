using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Stress;

/// <summary><see cref="StressWsServer"/> over TLS.</summary>
internal sealed class StressWssServer(SslContext context, bool echo) : WssServer(context, IPAddress.Loopback, 0), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    bool IStressServer.Multicast(byte[] buffer) => MulticastBinary(buffer);

    protected override SslSession CreateSession() => new Session(this, new StressSessionHooks(Counters));

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(WssServer server, StressSessionHooks hooks) : WssSession(server)
    {
        public override void OnWsConnected(HttpRequest request) => hooks.Connected(this);

        protected override void OnError(SocketError error) => hooks.Error(error);

        protected override void OnSlowConsumer() => hooks.SlowConsumer();

        protected override void OnDisconnected() => hooks.DisconnectedIfUpgraded(DisconnectReason);
    }
}
