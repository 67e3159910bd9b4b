using System;
using System.Net;
using System.Threading;

namespace NetCoreServer.Performance.Stress;

/// <summary>What the scenarios need of a server, whatever its transport.</summary>
internal interface IStressServer : IDisposable
{
    EndPoint Endpoint { get; }

    long ConnectedSessions { get; }

    int OptionMaxSessions { get; set; }

    int OptionMaxSessionsPerAddress { get; set; }

    TimeSpan OptionIdleTimeout { get; set; }

    SlowConsumerPolicy OptionSlowConsumerPolicy { get; set; }

    bool Start();

    bool Stop();

    bool Restart();

    bool IsStarted { get; }

    bool Multicast(byte[] buffer);

    /// <summary>What the server's sessions and refusals counted.</summary>
    StressCounters Counters { get; }
}

/// <summary>The counters and the echo shared by the three servers' sessions.</summary>
internal sealed class StressCounters
{
    private readonly long[] _closed = new long[16];
    private long _refused;
    private long _refusals;
    private long _opened;
    private long _hookFaults;

    public StressCounters(bool echo) => Echo = echo;

    public bool Echo { get; }

    /// <summary>Each session by the index its client sent first (4 bytes, little-endian), for scenarios that tell them apart.</summary>
    public System.Collections.Concurrent.ConcurrentDictionary<int, StreamSession> ByClient { get; } = new();

    /// <summary>Connections refused by the caps.</summary>
    public long Refused => Interlocked.Read(ref _refused);

    /// <summary>Sessions whose send limit refused data (OnError NoBufferSpaceAvailable, once per episode).</summary>
    public long Refusals => Interlocked.Read(ref _refusals);

    public void OnRefused() => Interlocked.Increment(ref _refused);

    public void OnError(System.Net.Sockets.SocketError error)
    {
        if (error == System.Net.Sockets.SocketError.NoBufferSpaceAvailable)
            Interlocked.Increment(ref _refusals);
        else
            Errors.Add(error);
    }

    /// <summary>Errors other than refused sends that sessions reported through OnError.</summary>
    public System.Collections.Concurrent.ConcurrentBag<System.Net.Sockets.SocketError> Errors { get; } = new();

    /// <summary>Sessions that ran OnConnected.</summary>
    public long Opened => Interlocked.Read(ref _opened);

    /// <summary>Hook-order faults: OnConnected twice, OnDisconnected twice, or OnDisconnected without OnConnected.</summary>
    public long HookFaults => Interlocked.Read(ref _hookFaults);

    /// <summary>The disconnect timeout each session gets in OnConnected; null keeps the library's default.</summary>
    public TimeSpan? DisconnectTimeout { get; set; }

    /// <summary>A session's OnConnected; <paramref name="life"/> is that session's own field (0 new, 1 connected, 2 disconnected).</summary>
    public void OnOpened(StreamSession session, ref int life)
    {
        if (DisconnectTimeout is { } timeout)
            session.OptionDisconnectTimeout = timeout;
        Interlocked.Increment(ref _opened);
        if (Interlocked.CompareExchange(ref life, 1, 0) != 0)
            Interlocked.Increment(ref _hookFaults);
    }

    /// <summary>A session's OnDisconnected: counted by reason, once per session that was connected.</summary>
    public void OnClosed(ref int life, DisconnectReason reason)
    {
        if (Interlocked.Exchange(ref life, 2) != 1)
            Interlocked.Increment(ref _hookFaults);
        Interlocked.Increment(ref _closed[(int)reason]);
    }

    /// <summary>Sessions closed, by reason.</summary>
    public long ClosedWith(DisconnectReason reason) => Interlocked.Read(ref _closed[(int)reason]);

    /// <summary>Sessions closed, whatever the reason.</summary>
    public long Closed
    {
        get
        {
            long total = 0;
            for (var i = 0; i < _closed.Length; i++)
                total += Interlocked.Read(ref _closed[i]);
            return total;
        }
    }

    public void Received(StreamSession session, byte[] buffer, long offset, long size)
    {
        if (Echo)
            session.SendAsync(buffer, offset, size);
        else if (size >= 4)
            ByClient.TryAdd(BitConverter.ToInt32(buffer, (int)offset), session);
    }
}

internal sealed class StressTcpServer(bool echo) : TcpServer(IPAddress.Loopback, 0), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    protected override TcpSession CreateSession() => new Session(this, Counters);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(TcpServer server, StressCounters counters) : TcpSession(server)
    {
        private int _life;

        protected override void OnConnected() => counters.OnOpened(this, ref _life);

        protected override void OnReceived(byte[] buffer, long offset, long size) => counters.Received(this, buffer, offset, size);

        protected override void OnError(System.Net.Sockets.SocketError error) => counters.OnError(error);

        protected override void OnDisconnected() => counters.OnClosed(ref _life, DisconnectReason);
    }
}

internal sealed class StressSslServer(SslContext context, bool echo) : SslServer(context, IPAddress.Loopback, 0), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    protected override SslSession CreateSession() => new Session(this, Counters);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(SslServer server, StressCounters counters) : SslSession(server)
    {
        private int _life;

        protected override void OnConnected() => counters.OnOpened(this, ref _life);

        protected override void OnReceived(byte[] buffer, long offset, long size) => counters.Received(this, buffer, offset, size);

        protected override void OnError(System.Net.Sockets.SocketError error) => counters.OnError(error);

        protected override void OnDisconnected() => counters.OnClosed(ref _life, DisconnectReason);
    }
}

internal sealed class StressUdsServer(string path, bool echo) : UdsServer(path), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    protected override UdsSession CreateSession() => new Session(this, Counters);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(UdsServer server, StressCounters counters) : UdsSession(server)
    {
        private int _life;

        protected override void OnConnected() => counters.OnOpened(this, ref _life);

        protected override void OnReceived(byte[] buffer, long offset, long size) => counters.Received(this, buffer, offset, size);

        protected override void OnError(System.Net.Sockets.SocketError error) => counters.OnError(error);

        protected override void OnDisconnected() => counters.OnClosed(ref _life, DisconnectReason);
    }
}

/// <summary>A WebSocket server whose <see cref="IStressServer.Multicast"/> sends one binary message to every upgraded session.</summary>
internal sealed class StressWsServer(bool echo) : WsServer(IPAddress.Loopback, 0), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    bool IStressServer.Multicast(byte[] buffer) => MulticastBinary(buffer);

    protected override TcpSession CreateSession() => new Session(this, Counters);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(WsServer server, StressCounters counters) : WsSession(server)
    {
        private int _life;

        public override void OnWsConnected(HttpRequest request) => counters.OnOpened(this, ref _life);

        protected override void OnError(System.Net.Sockets.SocketError error) => counters.OnError(error);

        protected override void OnDisconnected()
        {
            if (_life != 0)
                counters.OnClosed(ref _life, DisconnectReason);
        }
    }
}

/// <summary>The same over TLS.</summary>
internal sealed class StressWssServer(SslContext context, bool echo) : WssServer(context, IPAddress.Loopback, 0), IStressServer
{
    public StressCounters Counters { get; } = new(echo);

    bool IStressServer.Multicast(byte[] buffer) => MulticastBinary(buffer);

    protected override SslSession CreateSession() => new Session(this, Counters);

    protected override void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason) => Counters.OnRefused();

    private sealed class Session(WssServer server, StressCounters counters) : WssSession(server)
    {
        private int _life;

        public override void OnWsConnected(HttpRequest request) => counters.OnOpened(this, ref _life);

        protected override void OnError(System.Net.Sockets.SocketError error) => counters.OnError(error);

        protected override void OnDisconnected()
        {
            if (_life != 0)
                counters.OnClosed(ref _life, DisconnectReason);
        }
    }
}
