using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Stress;

/// <summary>The same over a Unix domain socket at <c>path</c>.</summary>
internal sealed class StressUdsServer(string path, bool echo) : UdsServer(path), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    protected override UdsSession CreateSession() => new Session(this, new StressSessionHooks(Counters));

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(UdsServer server, StressSessionHooks hooks) : UdsSession(server)
    {
        protected override void OnConnected() => hooks.Connected(this);

        protected override void OnReceived(byte[] buffer, long offset, long size) => hooks.Received(this, buffer, offset, size);

        protected override void OnError(SocketError error) => hooks.Error(error);

        protected override void OnSlowConsumer() => hooks.SlowConsumer();

        protected override void OnDisconnected() => hooks.Disconnected(DisconnectReason);
    }
}
