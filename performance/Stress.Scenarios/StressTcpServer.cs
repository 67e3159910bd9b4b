using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Stress;

/// <summary>A TCP server whose sessions echo or stay silent (<see cref="StressCounters.Echo"/>).</summary>
internal sealed class StressTcpServer(bool echo) : TcpServer(IPAddress.Loopback, 0), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    protected override TcpSession CreateSession() => new Session(this, new StressSessionHooks(Counters));

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(TcpServer server, StressSessionHooks hooks) : TcpSession(server)
    {
        protected override void OnConnected() => hooks.Connected(this);

        protected override void OnReceived(byte[] buffer, long offset, long size) => hooks.Received(this, buffer, offset, size);

        protected override void OnError(SocketError error) => hooks.Error(error);

        protected override void OnSlowConsumer() => hooks.SlowConsumer();

        protected override void OnDisconnected() => hooks.Disconnected(DisconnectReason);
    }
}
