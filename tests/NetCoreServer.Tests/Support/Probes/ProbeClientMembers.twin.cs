using System.Net.Sockets;

// twin: NetCoreServer.Tests.Support.ProbeClients.Tcp NetCoreServer.Tests.Support.ProbeClients.Ssl NetCoreServer.Tests.Support.ProbeClients.Uds
    private readonly TestClient _probe;

    protected override void OnConnecting() => _probe.Hook("OnConnecting");

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnEmpty() => _probe.Hook("OnEmpty");

    protected override void OnSent(long sent, long pending) => _probe.Sent();

    protected override void OnReceived(byte[] buffer, long offset, long size) => _probe.ReceivedData(buffer, offset, size);

    protected override void OnDisconnecting() => _probe.Disconnecting();

    protected override void OnDisconnected() => _probe.Disconnected();

    protected override void OnError(SocketError error) => _probe.Error(error);
