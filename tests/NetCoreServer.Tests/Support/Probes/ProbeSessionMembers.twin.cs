using System.Net.Sockets;

// twin: NetCoreServer.Tests.Support.ProbeSessions.Tcp NetCoreServer.Tests.Support.ProbeSessions.Ssl NetCoreServer.Tests.Support.ProbeSessions.Uds
    // Each class is named after its transport, so __TWIN__Server is its server type (TcpServer, SslServer, UdsServer).
    private readonly TestSession _probe;

    public __TWIN__(__TWIN__Server server, TestServer probe)
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
