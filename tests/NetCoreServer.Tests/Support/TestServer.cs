using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>Server used by the socket tests: echoes by default, records hooks and completes tasks from them.</summary>
internal sealed class TestServer : TcpServer
{
    private readonly TaskCompletionSource _firstConnected = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public TestServer(IPAddress address, int port = 0)
        : base(address, port)
    {
    }

    public TestServer(string address, int port = 0)
        : base(address, port)
    {
    }

    public bool Echo { get; set; } = true;

    public int? SessionSendLimit { get; set; }

    public HookLog Log { get; } = new();

    public Counter Connected { get; } = new();

    public Counter Disconnected { get; } = new();

    public Counter Received { get; } = new();

    public Task FirstConnected => _firstConnected.Task;

    public Action<TestSession, byte[], long, long>? OnData { get; set; }

    public int BoundPort => ((IPEndPoint)Endpoint).Port;

    public TestSession? LastSession { get; private set; }

    protected override TcpSession CreateSession()
    {
        var session = new TestSession(this);
        if (SessionSendLimit is int limit)
            session.OptionSendBufferLimit = limit;
        LastSession = session;
        return session;
    }

    protected override void OnConnecting(TcpSession session) => Log.Add("server.OnConnecting");

    protected override void OnConnected(TcpSession session)
    {
        Log.Add("server.OnConnected");
        Connected.Add(1);
        _firstConnected.TrySetResult();
    }

    protected override void OnDisconnecting(TcpSession session) => Log.Add("server.OnDisconnecting");

    protected override void OnDisconnected(TcpSession session)
    {
        Log.Add("server.OnDisconnected");
        Disconnected.Add(1);
    }

    protected override void OnError(SocketError error) => Log.Add("server.OnError " + error);
}

/// <summary>Session of <see cref="TestServer"/>.</summary>
internal sealed class TestSession : TcpSession
{
    private readonly TestServer _server;
    private readonly TaskCompletionSource _disconnected = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public TestSession(TestServer server)
        : base(server)
    {
        _server = server;
    }

    public Counter Errors { get; } = new();

    public SocketError LastError { get; private set; }

    public Task Closed => _disconnected.Task;

    protected override void OnConnecting() => _server.Log.Add("session.OnConnecting");

    protected override void OnConnected() => _server.Log.Add("session.OnConnected");

    protected override void OnEmpty() => _server.Log.Add("session.OnEmpty");

    protected override void OnSent(long sent, long pending) => _server.Log.Add("session.OnSent");

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        _server.Log.Add("session.OnReceived");
        _server.OnData?.Invoke(this, buffer, offset, size);
        if (_server.Echo)
            SendAsync(buffer, offset, size);
        _server.Received.Add(size);
    }

    protected override void OnDisconnecting() => _server.Log.Add("session.OnDisconnecting");

    protected override void OnDisconnected()
    {
        _server.Log.Add("session.OnDisconnected");
        _disconnected.TrySetResult();
    }

    protected override void OnError(SocketError error)
    {
        LastError = error;
        _server.Log.Add("session.OnError " + error);
        Errors.Add(1);
    }
}
