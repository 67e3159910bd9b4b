using System;
using System.Diagnostics;
using System.Net.Sockets;
using System.Threading;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// A TCP server with a background thread that multicasts one message after another to every session. With no
/// session it sleeps on an event; when every session's send queue is full it waits (at most 1 ms) for one of them to
/// send something, so the thread does not spin on refusals.
/// </summary>
internal sealed class MulticastTcpServer : TcpServer, IBenchmarkServer
{
    // A session may hold this many messages (but at least 64 KiB) before it misses messages: enough to keep the
    // socket busy between two sends, small enough that 100 slow clients cost a few MiB.
    private const int QueuedMessagesPerSession = 1000;
    private const int MinimumSendBufferLimit = 64 * 1024;

    // Idle and back-off waits; short enough that a new client or freed space is used almost at once.
    private static readonly TimeSpan s_idleWait = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan s_roomWait = TimeSpan.FromMilliseconds(1);
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(5);

    // When paced, at most this many due messages are sent in one go before the loop looks at the clock again.
    private const int MaximumCatchUp = 1000;

    private readonly byte[] _message;
    private readonly int _rate;
    private readonly int _sendBufferLimit;
    private readonly ManualResetEventSlim _sessionArrived = new(false);
    private readonly ManualResetEventSlim _room = new(false);
    private Thread? _loop;
    private volatile bool _stopping;
    private volatile bool _waitingForRoom;
    private long _refusals;

    public MulticastTcpServer(string address, int port, int rate, int size)
        : base(address, port)
    {
        _rate = rate;
        _sendBufferLimit = (int)Math.Min(int.MaxValue, Math.Max(MinimumSendBufferLimit, (long)QueuedMessagesPerSession * size));
        _message = new byte[size];
        for (var i = 0; i < size; i++)
            _message[i] = (byte)('a' + i % 26);
    }

    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    bool IBenchmarkServer.Start()
    {
        if (!Start())
            return false;
        _stopping = false;
        _loop = new Thread(MulticastLoop) { IsBackground = true, Name = "Multicast loop" };
        _loop.Start();
        return true;
    }

    bool IBenchmarkServer.Stop()
    {
        _stopping = true;
        _sessionArrived.Set();
        _room.Set();
        if (_loop != null && !_loop.Join(s_stopTimeout))
            Console.Error.WriteLine($"warning: the multicast loop did not end within {s_stopTimeout.TotalSeconds:0} s");
        _loop = null;
        return Stop();
    }

    /// <summary>A session refused a message because its queue is full; called inside Multicast, on the loop's thread.</summary>
    internal void NoteRefusal() => _refusals++;

    /// <summary>A session sent data, so its queue has room again; called on I/O threads.</summary>
    internal void NoteRoom()
    {
        if (_waitingForRoom)
            _room.Set();
    }

    protected override TcpSession CreateSession() => new MulticastTcpSession(this, _sendBufferLimit);

    protected override void OnConnected(TcpSession session) => _sessionArrived.Set();

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Multicast server caught an error: {error}");

    protected override void Dispose(bool disposingManagedResources)
    {
        base.Dispose(disposingManagedResources);
        if (disposingManagedResources)
        {
            _sessionArrived.Dispose();
            _room.Dispose();
        }
    }

    private void MulticastLoop()
    {
        var clock = Stopwatch.StartNew();
        long sent = 0;
        while (!_stopping)
        {
            if (ConnectedSessions == 0)
            {
                _sessionArrived.Reset();
                if (ConnectedSessions == 0)
                    _sessionArrived.Wait(s_idleWait);
                // Pacing starts over with the first client, so that idle time does not turn into a burst.
                clock.Restart();
                sent = 0;
                continue;
            }

            if (_rate == 0)
            {
                MulticastOnce();
                continue;
            }

            var due = (long)(clock.Elapsed.TotalSeconds * _rate) - sent;
            if (due <= 0)
            {
                Thread.Sleep(1);
                continue;
            }
            for (var i = Math.Min(due, MaximumCatchUp); i > 0 && !_stopping; i--)
            {
                MulticastOnce();
                sent++;
            }
        }
    }

    private void MulticastOnce()
    {
        var sessions = ConnectedSessions;
        var refusedBefore = _refusals;
        Multicast(_message);
        if (_refusals - refusedBefore < sessions)
            return;

        // Every queue is full. Space freed between the multicast and the reset is noticed only after the bounded
        // wait, which costs at most 1 ms; arming the event on every message instead would put a Set on every send.
        _room.Reset();
        _waitingForRoom = true;
        _room.Wait(s_roomWait);
        _waitingForRoom = false;
    }
}
