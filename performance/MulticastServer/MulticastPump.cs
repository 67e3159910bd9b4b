using System;
using System.Diagnostics;
using System.Net.Sockets;
using System.Threading;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// The multicast loop of a benchmark server, whatever its transport: a background thread that multicasts one message
/// after another to every session. With no session it sleeps on an event; when a session's send queue is full it
/// waits (at most 1 ms) for one of them to send something, so the thread does not spin making messages that are
/// skipped. The tcp, ssl and uds servers and sessions forward their hooks here.
/// </summary>
internal sealed class MulticastPump : IDisposable
{
    // A session may hold this many messages (but at least 64 KiB) before it misses messages: enough to keep the
    // socket busy between two sends, small enough that 100 slow clients cost a few MiB.
    private const int QueuedMessagesPerSession = 1000;
    private const int MinimumSendBufferLimit = 64 * 1024;

    // When paced, at most this many due messages are sent in one go before the loop looks at the clock again.
    private const int MaximumCatchUp = 1000;

    // Idle and back-off waits; short enough that a new client or freed space is used almost at once.
    private static readonly TimeSpan s_idleWait = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan s_roomWait = TimeSpan.FromMilliseconds(1);
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(5);

    private readonly Func<long> _connectedSessions;
    private readonly Func<byte[], bool> _multicast;
    private readonly byte[] _message;
    private readonly int _rate;
    private readonly ManualResetEventSlim _sessionArrived = new(false);
    private readonly ManualResetEventSlim _room = new(false);
    private Thread? _loop;
    private volatile bool _stopping;
    private volatile bool _waitingForRoom;
    private long _refusals;

    /// <summary>Creates a stopped pump.</summary>
    /// <param name="connectedSessions">The server's session count.</param>
    /// <param name="multicast">The server's Multicast.</param>
    /// <param name="rate">Messages per second; 0 for as fast as the sessions take them.</param>
    /// <param name="size">Message size in bytes.</param>
    public MulticastPump(Func<long> connectedSessions, Func<byte[], bool> multicast, int rate, int size)
    {
        _connectedSessions = connectedSessions;
        _multicast = multicast;
        _rate = rate;
        SendBufferLimit = (int)Math.Min(int.MaxValue, Math.Max(MinimumSendBufferLimit, (long)QueuedMessagesPerSession * size));
        _message = new byte[size];
        for (var i = 0; i < size; i++)
            _message[i] = (byte)('a' + i % 26);
    }

    /// <summary>The send queue limit every session gets, so a slow client misses messages instead of making the server's memory grow.</summary>
    public int SendBufferLimit { get; }

    // Starts the loop; only after the server started (see StartWith).
    private void Start()
    {
        _stopping = false;
        _loop = new Thread(Loop) { IsBackground = true, Name = "Multicast loop" };
        _loop.Start();
    }

    /// <summary>Starts <paramref name="startServer"/> (the server's Start), then the loop when the server started.</summary>
    /// <returns>False when the server did not start.</returns>
    public bool StartWith(Func<bool> startServer)
    {
        if (!startServer())
            return false;
        Start();
        return true;
    }

    /// <summary>Ends the loop, then calls <paramref name="stopServer"/> (the server's Stop), so nothing is multicast to a stopping server.</summary>
    /// <returns>What the server's Stop returned.</returns>
    public bool StopWith(Func<bool> stopServer)
    {
        Stop();
        return stopServer();
    }

    // Ends the loop, waiting at most 5 s; only before the server stops (see StopWith).
    private void Stop()
    {
        _stopping = true;
        _sessionArrived.Set();
        _room.Set();
        if (_loop != null && !_loop.Join(s_stopTimeout))
            Console.Error.WriteLine($"warning: the multicast loop did not end within {s_stopTimeout.TotalSeconds:0} s");
        _loop = null;
    }

    /// <summary>Call from the server's OnConnected.</summary>
    public void SessionArrived() => _sessionArrived.Set();

    /// <summary>Call from a session's OnSent: its queue has room again. Runs on I/O threads.</summary>
    public void SessionSent()
    {
        if (_waitingForRoom)
            _room.Set();
    }

    /// <summary>
    /// Call from a session's OnError. A refused message (NoBufferSpaceAvailable, raised inside Multicast on the loop's
    /// thread) is counted; anything else is reported on stderr.
    /// </summary>
    public void SessionError(Guid session, SocketError error)
    {
        if (error == SocketError.NoBufferSpaceAvailable)
            _refusals++;
        else
            Console.Error.WriteLine($"Multicast session {session} caught an error: {error}");
    }

    /// <summary>Releases the events; call after <see cref="StopWith"/>.</summary>
    public void Dispose()
    {
        _sessionArrived.Dispose();
        _room.Dispose();
    }

    private void Loop()
    {
        var clock = Stopwatch.StartNew();
        long sent = 0;
        while (!_stopping)
        {
            if (_connectedSessions() == 0)
            {
                _sessionArrived.Reset();
                if (_connectedSessions() == 0)
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
        var refusedBefore = _refusals;
        _multicast(_message);
        if (_refusals == refusedBefore)
            return;

        // A session's queue is full: it skips messages from here on (OnError comes once per episode, not per message),
        // so going on at full speed only makes messages nobody takes. Wait until a session has sent something. Space
        // freed between the multicast and the reset is noticed only after the bounded wait, which costs at most 1 ms;
        // arming the event on every message instead would put a Set on every send.
        _room.Reset();
        _waitingForRoom = true;
        _room.Wait(s_roomWait);
        _waitingForRoom = false;
    }
}
