using System;
using System.IO;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Tests.Support;

/// <summary>Unix domain sockets, each server on a unique temporary path.</summary>
internal sealed class UdsTestTransport : TestTransport
{
    public static string NewPath() => Path.Combine(Path.GetTempPath(), "ncs-" + Guid.NewGuid().ToString("N")[..12] + ".sock");

    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new Server(probe, NewPath());

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint) => new Client(probe, (UnixDomainSocketEndPoint)endpoint);

    public override bool IsUnix => true;

    public override string ToString() => "uds";

    private sealed class Server(TestServer probe, string path) : UdsServer(path), IServerControl
    {
        protected override UdsSession CreateSession() => new Session(this, probe);

        protected override void OnConnecting(UdsSession session) => probe.ServerHook("OnConnecting");

        protected override void OnConnected(UdsSession session) => probe.ServerHook("OnConnected");

        protected override void OnDisconnecting(UdsSession session) => probe.ServerHook("OnDisconnecting");

        protected override void OnDisconnected(UdsSession session) => probe.ServerHook("OnDisconnected");

        protected override void OnError(SocketError error) => probe.ServerHook("OnError " + error);

        protected override bool OnAccepting(EndPoint? remoteEndPoint) => probe.Accepting(remoteEndPoint);

        protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => probe.Refused(remoteEndPoint, reason);

        protected override void OnStopping() => probe.ServerHook("OnStopping");

        protected override void OnStopped() => probe.ServerHook("OnStopped");

        protected override void OnHandlerException(System.Exception exception) => probe.ServerHook("OnHandlerException " + exception.Message);
    }

    private sealed class Session : UdsSession
    {
        private readonly TestSession _probe;

        public Session(UdsServer server, TestServer probe)
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

    private sealed class Client(TestClient probe, UnixDomainSocketEndPoint endpoint) : UdsClient(endpoint)
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
