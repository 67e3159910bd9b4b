using System;
using System.Net;
using System.Net.Sockets;

// twin: NetCoreServer.Tests.Support.ProbeServers.Tcp NetCoreServer.Tests.Support.ProbeServers.Ssl NetCoreServer.Tests.Support.ProbeServers.Uds
    // Each class is named after its transport, so __TWIN__Session is its session type (TcpSession, SslSession, UdsSession).
    private readonly TestServer _probe;

    protected override __TWIN__Session CreateSession() => new ProbeSessions.__TWIN__(this, _probe);

    protected override void OnConnecting(__TWIN__Session session) => _probe.ServerHook("OnConnecting");

    protected override void OnConnected(__TWIN__Session session) => _probe.ServerHook("OnConnected");

    protected override void OnDisconnecting(__TWIN__Session session) => _probe.ServerHook("OnDisconnecting");

    protected override void OnDisconnected(__TWIN__Session session) => _probe.ServerHook("OnDisconnected");

    protected override void OnError(SocketError error) => _probe.ServerHook("OnError " + error);

    protected override bool OnAccepting(EndPoint? remoteEndPoint) => _probe.Accepting(remoteEndPoint);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => _probe.Refused(remoteEndPoint, reason);

    protected override void OnStopping() => _probe.ServerHook("OnStopping");

    protected override void OnStopped() => _probe.ServerHook("OnStopped");

    protected override void OnHandlerException(Exception exception) => _probe.ServerHook("OnHandlerException " + exception.Message);
