using System;
using System.Net.Sockets;
using System.Net;

// The real servers the socket suite runs, one per transport, each forwarding its hooks to a TestServer. The hooks are
// one-line forwards repeated per class: C# cannot share overrides across the sibling bases TcpServer, SslServer and
// UdsServer, and the suite must run those classes themselves.
namespace NetCoreServer.Tests.Support.ProbeServers;

/// <summary>A TCP server on a free loopback port.</summary>
internal sealed class Tcp : TcpServer, IServerControl
{
    public Tcp(TestServer probe, IPAddress address)
        : base(address, 0) => _probe = probe;

    private readonly TestServer _probe;

    public StreamSession? Find(Guid id) => FindSession(id);

    protected override TcpSession CreateSession() => new ProbeSessions.Tcp(this, _probe);

    protected override void OnConnecting(TcpSession session) => _probe.ServerHook("OnConnecting");

    protected override void OnConnected(TcpSession session) => _probe.ServerHook("OnConnected");

    protected override void OnDisconnecting(TcpSession session) => _probe.ServerHook("OnDisconnecting");

    protected override void OnDisconnected(TcpSession session) => _probe.ServerHook("OnDisconnected");

    protected override void OnError(SocketError error) => _probe.ServerHook("OnError " + error);

    protected override bool OnAccepting(EndPoint? remoteEndPoint) => _probe.Accepting(remoteEndPoint);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => _probe.Refused(remoteEndPoint, reason);

    protected override void OnStopping() => _probe.ServerHook("OnStopping");

    protected override void OnStopped() => _probe.ServerHook("OnStopped");

    protected override void OnHandlerException(Exception exception) => _probe.ServerHook("OnHandlerException " + exception.Message);
}

/// <summary>A TLS server on a free loopback port; tests may change its context while it runs.</summary>
internal sealed class Ssl : SslServer, IServerControl
{
    public Ssl(SslContext context, TestServer probe, IPAddress address)
        : base(context, address, 0) => _probe = probe;

    protected override void OnHandshaking(SslSession session) => _probe.ServerHook("OnHandshaking");

    protected override void OnHandshaked(SslSession session) => _probe.ServerHook("OnHandshaked");

    private readonly TestServer _probe;

    public StreamSession? Find(Guid id) => FindSession(id);

    protected override SslSession CreateSession() => new ProbeSessions.Ssl(this, _probe);

    protected override void OnConnecting(SslSession session) => _probe.ServerHook("OnConnecting");

    protected override void OnConnected(SslSession session) => _probe.ServerHook("OnConnected");

    protected override void OnDisconnecting(SslSession session) => _probe.ServerHook("OnDisconnecting");

    protected override void OnDisconnected(SslSession session) => _probe.ServerHook("OnDisconnected");

    protected override void OnError(SocketError error) => _probe.ServerHook("OnError " + error);

    protected override bool OnAccepting(EndPoint? remoteEndPoint) => _probe.Accepting(remoteEndPoint);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => _probe.Refused(remoteEndPoint, reason);

    protected override void OnStopping() => _probe.ServerHook("OnStopping");

    protected override void OnStopped() => _probe.ServerHook("OnStopped");

    protected override void OnHandlerException(Exception exception) => _probe.ServerHook("OnHandlerException " + exception.Message);
}

/// <summary>A Unix-socket server on its own temporary path.</summary>
internal sealed class Uds : UdsServer, IServerControl
{
    public Uds(TestServer probe, string path)
        : base(path) => _probe = probe;

    private readonly TestServer _probe;

    public StreamSession? Find(Guid id) => FindSession(id);

    protected override UdsSession CreateSession() => new ProbeSessions.Uds(this, _probe);

    protected override void OnConnecting(UdsSession session) => _probe.ServerHook("OnConnecting");

    protected override void OnConnected(UdsSession session) => _probe.ServerHook("OnConnected");

    protected override void OnDisconnecting(UdsSession session) => _probe.ServerHook("OnDisconnecting");

    protected override void OnDisconnected(UdsSession session) => _probe.ServerHook("OnDisconnected");

    protected override void OnError(SocketError error) => _probe.ServerHook("OnError " + error);

    protected override bool OnAccepting(EndPoint? remoteEndPoint) => _probe.Accepting(remoteEndPoint);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => _probe.Refused(remoteEndPoint, reason);

    protected override void OnStopping() => _probe.ServerHook("OnStopping");

    protected override void OnStopped() => _probe.ServerHook("OnStopped");

    protected override void OnHandlerException(Exception exception) => _probe.ServerHook("OnHandlerException " + exception.Message);
}
