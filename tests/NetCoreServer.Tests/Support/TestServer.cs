using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// The server the socket suite drives, whatever the transport: echoes by default, records hooks and completes
/// tasks from them. The real server is a thin subclass per transport that forwards its hooks here.
/// </summary>
internal sealed class TestServer : IDisposable
{
    private readonly TaskCompletionSource _firstConnected = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly IServerControl _server;

    public TestServer(TestTransport transport, IPAddress address)
    {
        Transport = transport;
        _server = transport.CreateServer(this, address);
    }

    public TestTransport Transport { get; }

    /// <summary>The real server (an SslServer for TLS tests that need its context).</summary>
    public object Inner => _server;

    public bool Echo { get; set; } = true;

    public int? SessionSendLimit { get; set; }

    public HookLog Log { get; } = new();

    public Counter Connected { get; } = new();

    public Counter Disconnected { get; } = new();

    /// <summary>Counts server.OnConnected (before any handshake), where <see cref="Connected"/> waits for TLS.</summary>
    public Counter Accepted { get; } = new();

    public Counter Received { get; } = new();

    public Task FirstConnected => _firstConnected.Task;

    public Action<TestSession, byte[], long, long>? OnData { get; set; }

    /// <summary>Runs inside every session hook, after it is logged (tests that block a hook or act from inside one).</summary>
    public Action<TestSession, string>? OnSessionHook { get; set; }

    /// <summary>Runs inside CreateSession before the session exists (a test may block it or throw).</summary>
    public Action? OnCreateSession { get; set; }

    /// <summary>Runs inside every server hook, after it is logged.</summary>
    public Action<string>? OnServerHook { get; set; }

    /// <summary>Runs inside each session's OnDisconnecting (a goodbye sent while disconnecting).</summary>
    public Action<TestSession>? OnSessionDisconnecting { get; set; }

    /// <summary>Decides OnAccepting (accepts everything when null).</summary>
    public Func<EndPoint?, bool>? AcceptFilter { get; set; }

    /// <summary>Connections the server refused, with why, in order.</summary>
    public System.Collections.Concurrent.ConcurrentQueue<(EndPoint? Remote, RefusalReason Reason)> Refusals { get; } = new();

    /// <summary>Counts OnAccepting calls.</summary>
    public Counter AcceptingCalls { get; } = new();

    /// <summary>Counts refused connections.</summary>
    public Counter RefusedCount { get; } = new();

    /// <summary>The real server's caps and limits.</summary>
    public IServerControl Options => _server;

    public TestSession? LastSession { get; private set; }

    /// <summary>Every session this server created, in order.</summary>
    public System.Collections.Concurrent.ConcurrentQueue<TestSession> Sessions { get; } = new();

    public EndPoint Endpoint => _server.Endpoint;

    public int BoundPort => Endpoint is IPEndPoint ip ? ip.Port : 0;

    public long ConnectedSessions => _server.ConnectedSessions;

    /// <summary>The server's FindSession.</summary>
    public StreamSession? FindSession(Guid id) => _server.Find(id);

    public long BytesReceived => _server.BytesReceived;

    public bool IsStarted => _server.IsStarted;

    public bool Start() => _server.Start();

    public bool Stop() => _server.Stop();

    public bool Restart() => _server.Restart();

    public bool DisconnectAll() => _server.DisconnectAll();

    public bool IsAccepting => _server.IsAccepting;

    public bool Multicast(byte[] data) => _server.Multicast(data);

    public bool Multicast(string text) => _server.Multicast(text);

    public void Dispose() => _server.Dispose();

    public TestSession NewSession(StreamSession session)
    {
        OnCreateSession?.Invoke();
        var probe = new TestSession(this, session);
        if (SessionSendLimit is int limit)
            session.OptionSendBufferLimit = limit;
        LastSession = probe;
        Sessions.Enqueue(probe);
        return probe;
    }

    public bool Accepting(EndPoint? remote)
    {
        // Counted, not logged: the hook-order tests compare the log with NetCoreServer's hooks.
        AcceptingCalls.Add(1);
        return AcceptFilter?.Invoke(remote) ?? true;
    }

    public void Refused(EndPoint? remote, RefusalReason reason)
    {
        Log.Add("server.OnRefused " + reason);
        Refusals.Enqueue((remote, reason));
        RefusedCount.Add(1);
    }

    public void ServerHook(string name)
    {
        Log.Add("server." + name);
        if (name == "OnConnected")
            Accepted.Add(1);
        // "Connected" means ready for data: after the handshake on TLS.
        if (name == (Transport.Secure ? "OnHandshaked" : "OnConnected"))
        {
            Connected.Add(1);
            _firstConnected.TrySetResult();
        }
        else if (name == "OnDisconnected")
        {
            Disconnected.Add(1);
        }
        OnServerHook?.Invoke(name);
    }
}

/// <summary>What the suite needs of a real server, whatever its session type.</summary>
internal interface IServerControl : IDisposable
{
    EndPoint Endpoint { get; }

    long ConnectedSessions { get; }

    StreamSession? Find(Guid id);

    long SkippedMulticasts { get; }

    long SlowConsumerEpisodes { get; }

    long BytesReceived { get; }

    bool IsStarted { get; }

    bool Start();

    bool Stop();

    bool Restart();

    bool DisconnectAll();

    bool IsAccepting { get; }

    bool Multicast(byte[] data);

    bool Multicast(string text);

    int OptionMaxSessions { get; set; }

    int OptionMaxSessionsPerAddress { get; set; }

    int OptionDescriptorReserve { get; set; }

    System.TimeSpan OptionIdleTimeout { get; set; }

    System.TimeProvider OptionTimeProvider { get; set; }

    bool OptionKeepAlive { get; set; }

    int OptionTcpKeepAliveTime { get; set; }

    int OptionTcpKeepAliveInterval { get; set; }

    int OptionTcpKeepAliveRetryCount { get; set; }

    SlowConsumerPolicy OptionSlowConsumerPolicy { get; set; }
}

/// <summary>The suite's view of one session: the real session plus what its hooks recorded.</summary>
internal sealed class TestSession
{
    private readonly TestServer _server;
    private readonly TaskCompletionSource _disconnected = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public TestSession(TestServer server, StreamSession session)
    {
        _server = server;
        Session = session;
    }

    public StreamSession Session { get; }

    public Counter Errors { get; } = new();

    /// <summary>Counts OnSlowConsumer.</summary>
    public Counter SlowConsumers { get; } = new();

    public SocketError LastError { get; private set; }

    public Task Closed => _disconnected.Task;

    public bool IsConnected => Session.IsConnected;

    public DisconnectReason DisconnectReason => Session.DisconnectReason;

    public long BytesPending => Session.BytesPending;

    public long BytesSending => Session.BytesSending;

    public bool Disconnect() => Session.Disconnect();

    public bool SendAsync(byte[] data) => Session.SendAsync(data);

    /// <summary>This session's own hooks, in order.</summary>
    public HookLog Log { get; } = new();

    public void Hook(string name)
    {
        _server.Log.Add("session." + name);
        Log.Add(name);
        _server.OnSessionHook?.Invoke(this, name);
    }

    public void Disconnecting()
    {
        Hook("OnDisconnecting");
        _server.OnSessionDisconnecting?.Invoke(this);
    }

    public long Send(string text) => Session.Send(text);

    public bool SendAsync(string text) => Session.SendAsync(text);

    public void Received(byte[] buffer, long offset, long size)
    {
        _server.Log.Add("session.OnReceived");
        Log.Add("OnReceived");
        if (_server.Echo)
            Session.SendAsync(buffer, offset, size);
        _server.OnData?.Invoke(this, buffer, offset, size);
        _server.Received.Add(size);
    }

    public void Disconnected()
    {
        Hook("OnDisconnected");
        _disconnected.TrySetResult();
    }

    public void SlowConsumer()
    {
        SlowConsumers.Add(1);
        Hook("OnSlowConsumer");
    }

    public void Error(SocketError error)
    {
        LastError = error;
        _server.Log.Add("session.OnError " + error);
        Log.Add("OnError " + error);
        Errors.Add(1);
    }
}
