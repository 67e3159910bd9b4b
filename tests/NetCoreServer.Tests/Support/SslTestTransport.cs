using System;
using System.Net;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Certificates;

namespace NetCoreServer.Tests.Support;

/// <summary>TLS 1.2/1.3 with in-process certificates: a test CA, a server certificate, validation against that CA.</summary>
internal sealed class SslTestTransport : TestTransport
{
    public static readonly X509Certificate2 Authority = DevelopmentCertificates.CreateAuthority();

    public static readonly X509Certificate2 ServerCertificate = DevelopmentCertificates.CreateServer(Authority);

    private readonly Func<SslContext> _serverContext;
    private readonly Func<SslContext> _clientContext;
    private readonly Action<SslClient>? _configureClient;

    public SslTestTransport()
        : this(DefaultServerContext, DefaultClientContext)
    {
    }

    /// <summary>A TLS transport with chosen contexts (a new one per server or client) for the TLS-specific tests.</summary>
    public SslTestTransport(Func<SslContext> serverContext, Func<SslContext> clientContext, Action<SslClient>? configureClient = null)
    {
        _serverContext = serverContext;
        _clientContext = clientContext;
        _configureClient = configureClient;
    }

    public static SslContext DefaultServerContext() => new(SslProtocols.Tls12 | SslProtocols.Tls13, ServerCertificate);

    public static SslContext DefaultClientContext() => new(SslProtocols.Tls12 | SslProtocols.Tls13, TrustedBy.Authority(Authority));

    internal override IServerControl CreateServer(TestServer probe, IPAddress address) => new Server(_serverContext(), probe, address);

    internal override StreamClient CreateClient(TestClient probe, EndPoint endpoint)
    {
        var client = new Client(_clientContext(), probe, (IPEndPoint)endpoint);
        _configureClient?.Invoke(client);
        return client;
    }

    public override bool Secure => true;

    public override string ToString() => "ssl";

    /// <summary>The TLS server under test, with its context reachable for tests that change it while running.</summary>
    internal sealed class Server(SslContext context, TestServer probe, IPAddress address) : SslServer(context, address, 0), IServerControl
    {
        protected override SslSession CreateSession() => new Session(this, probe);

        protected override void OnConnecting(SslSession session) => probe.ServerHook("OnConnecting");

        protected override void OnConnected(SslSession session) => probe.ServerHook("OnConnected");

        protected override void OnHandshaking(SslSession session) => probe.ServerHook("OnHandshaking");

        protected override void OnHandshaked(SslSession session) => probe.ServerHook("OnHandshaked");

        protected override void OnDisconnecting(SslSession session) => probe.ServerHook("OnDisconnecting");

        protected override void OnDisconnected(SslSession session) => probe.ServerHook("OnDisconnected");

        protected override void OnError(SocketError error) => probe.ServerHook("OnError " + error);

        protected override bool OnAccepting(EndPoint? remoteEndPoint) => probe.Accepting(remoteEndPoint);

        protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => probe.Refused(remoteEndPoint, reason);

        protected override void OnStopping() => probe.ServerHook("OnStopping");

        protected override void OnStopped() => probe.ServerHook("OnStopped");

        protected override void OnHandlerException(System.Exception exception) => probe.ServerHook("OnHandlerException " + exception.Message);
    }

    private sealed class Session : SslSession
    {
        private readonly TestSession _probe;

        public Session(SslServer server, TestServer probe)
            : base(server) => _probe = probe.NewSession(this);

        protected override void OnConnecting() => _probe.Hook("OnConnecting");

        protected override void OnConnected() => _probe.Hook("OnConnected");

        protected override void OnHandshaking() => _probe.Hook("OnHandshaking");

        protected override void OnHandshaked() => _probe.Hook("OnHandshaked");

        protected override void OnEmpty() => _probe.Hook("OnEmpty");

        protected override void OnWritabilityChanged(bool writable) => _probe.Hook("OnWritabilityChanged " + writable);

        protected override void OnSent(long sent, long pending) => _probe.Hook("OnSent");

        protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.Received(buffer, offset, size);

        protected override void OnDisconnecting() => _probe.Disconnecting();

        protected override void OnDisconnected() => _probe.Disconnected();

        protected override void OnError(SocketError error) => _probe.Error(error);
    }

    private sealed class Client(SslContext context, TestClient probe, IPEndPoint endpoint) : SslClient(context, endpoint)
    {
        protected override void OnConnecting() => probe.Hook("OnConnecting");

        protected override void OnConnected() => probe.Hook("OnConnected");

        protected override void OnHandshaking() => probe.Hook("OnHandshaking");

        protected override void OnHandshaked() => probe.Hook("OnHandshaked");

        protected override void OnEmpty() => probe.Hook("OnEmpty");

        protected override void OnSent(long sent, long pending) => probe.Sent();

        protected override void OnReceived(byte[] buffer, long offset, long size) => probe.ReceivedData(buffer, offset, size);

        protected override void OnDisconnecting() => probe.Disconnecting();

        protected override void OnDisconnected() => probe.Disconnected();

        protected override void OnError(SocketError error) => probe.Error(error);
    }
}
