using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Support;

/// <summary>Plain TCP.</summary>
internal sealed class TcpTestTransport : TestTransport
{
    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new Server(probe, address);

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint) => new Client(probe, (IPEndPoint)endpoint);

    public override string ToString() => "tcp";

    private sealed class Server(TestServer probe, IPAddress address) : TcpServer(address, 0), IServerControl
    {
        protected override TcpSession CreateSession() => new Session(this, probe);

        protected override void OnConnecting(TcpSession session) => probe.ServerHook("OnConnecting");

        protected override void OnConnected(TcpSession session) => probe.ServerHook("OnConnected");

        protected override void OnDisconnecting(TcpSession session) => probe.ServerHook("OnDisconnecting");

        protected override void OnDisconnected(TcpSession session) => probe.ServerHook("OnDisconnected");

        protected override void OnError(SocketError error) => probe.ServerHook("OnError " + error);

        protected override bool OnAccepting(EndPoint? remoteEndPoint) => probe.Accepting(remoteEndPoint);

        protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => probe.Refused(remoteEndPoint, reason);

        protected override void OnStopping() => probe.ServerHook("OnStopping");

        protected override void OnStopped() => probe.ServerHook("OnStopped");

        protected override void OnHandlerException(System.Exception exception) => probe.ServerHook("OnHandlerException " + exception.Message);
    }

    private sealed class Session : TcpSession
    {
        private readonly TestSession _probe;

        public Session(TcpServer server, TestServer probe)
            : base(server) => _probe = probe.NewSession(this);

        protected override void OnConnecting() => _probe.Hook("OnConnecting");

        protected override void OnConnected() => _probe.Hook("OnConnected");

        protected override void OnEmpty() => _probe.Hook("OnEmpty");

        protected override void OnWritabilityChanged(bool writable) => _probe.Hook("OnWritabilityChanged " + writable);

        protected override void OnSent(long sent, long pending) => _probe.Hook("OnSent");

        protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.Received(buffer, offset, size);

        protected override void OnDisconnecting() => _probe.Disconnecting();

        protected override void OnDisconnected() => _probe.Disconnected();

        protected override void OnError(SocketError error) => _probe.Error(error);
    }

    private sealed class Client(TestClient probe, IPEndPoint endpoint) : TcpClient(endpoint)
    {
        protected override void OnConnecting() => probe.Hook("OnConnecting");

        protected override void OnConnected() => probe.Hook("OnConnected");

        protected override void OnEmpty() => probe.Hook("OnEmpty");

        protected override void OnSent(long sent, long pending) => probe.Sent();

        protected override void OnReceived(byte[] buffer, long offset, long size) => probe.ReceivedData(buffer, offset, size);

        protected override void OnDisconnecting() => probe.Disconnecting();

        protected override void OnDisconnected() => probe.Disconnected();

        protected override void OnError(SocketError error) => probe.Error(error);
    }
}
