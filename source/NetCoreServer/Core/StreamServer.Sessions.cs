using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Net.Sockets;
using System.Threading;
using NetCoreServer.Core;

namespace NetCoreServer;

public abstract partial class StreamServer<TSession>
{
    /// <summary>Connected sessions by id.</summary>
    protected readonly ConcurrentDictionary<Guid, TSession> Sessions = new();

    private readonly object _snapshotLock = new();

    // Every message multicast, written once; each connected session sends from its own position in it.
    private readonly MulticastLog _multicastLog = new();

    // Sessions that skipped the message being multicast, reported once the log's lock is released; reused per thread
    // (taken while in use, so a Multicast from one of those reports gets its own list).
    [ThreadStatic]
    private static List<TSession>? t_refused;

    // Copy-on-write array of the sessions, kept beside the dictionary for Multicast, which walks every session per
    // message. Measured over 100 sessions (.NET 10, this machine): 0 B and 1.2 us per pass over this array, against
    // 72 B and 2.2 us enumerating the dictionary and 880 B and 6.3 us through its Values copy. A session coming or
    // going only drops it (null); the next reader rebuilds it once. Rebuilding per change instead made accepting N
    // connections copy O(N^2) references (about 400 MB of garbage for 10,000), and a server that never multicasts
    // never needs it.
    private TSession[]? _snapshot = Array.Empty<TSession>();

    // Sessions in the dictionary, changed with it under the snapshot lock (ConcurrentDictionary.Count takes all of its
    // locks, and callers poll ConnectedSessions per message).
    private int _sessionCount;

    /// <summary>The registered sessions as an array that is replaced, never changed, when one comes or goes: for loops over every session (multicast) that must not allocate.</summary>
    private protected TSession[] SessionSnapshot => Volatile.Read(ref _snapshot) ?? BuildSnapshot();

    /// <summary>
    /// What <see cref="Multicast(ReadOnlySpan{byte})"/> does with a session whose send limit the message would pass:
    /// <see cref="SlowConsumerPolicy.Skip"/> (the default, as in NetCoreServer: that session misses the message) or
    /// <see cref="SlowConsumerPolicy.Disconnect"/> (it is closed with <see cref="DisconnectReason.SlowConsumer"/>, so no
    /// session ever sees a gap in the stream). Either way memory stays within each session's send limit.
    /// </summary>
    public SlowConsumerPolicy OptionSlowConsumerPolicy { get; set; }

    /// <summary>Number of sessions currently registered (connected or finishing a disconnect).</summary>
    public long ConnectedSessions => Volatile.Read(ref _sessionCount);

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new session.</returns>
    protected abstract TSession CreateSession();

    /// <summary>Finds a connected session by id.</summary>
    /// <param name="id">Session id.</param>
    /// <returns>The session, or null.</returns>
    public TSession? FindSession(Guid id) => Sessions.TryGetValue(id, out var session) ? session : null;

    /// <summary>Starts a graceful disconnect of every session.</summary>
    /// <returns>False if the server is not started.</returns>
    public virtual bool DisconnectAll()
    {
        if (!IsStarted)
            return false;
        foreach (var session in Sessions.Values)
            session.Disconnect();
        return true;
    }

    /// <summary>Queues the same data on every connected session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Data to send.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(byte[] buffer) => Multicast(buffer.AsSpan());

    /// <summary>Queues part of a buffer on every connected session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the data.</param>
    /// <param name="offset">Offset of the data.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(byte[] buffer, long offset, long size) => Multicast(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Queues the same bytes on every connected session. The message is copied once, into the server's multicast log,
    /// whatever the number of sessions; each session's send loop sends from the log, many messages per gathered write.
    /// A session whose send limit the message would pass (a peer that does not read) is handled by
    /// <see cref="OptionSlowConsumerPolicy"/>: by default it skips the message and gets <c>OnError(NoBufferSpaceAvailable)</c>
    /// (once per episode); the others still receive it. Sessions' <c>SendAsync</c> overrides are not called.
    /// </summary>
    /// <param name="buffer">Data to send.</param>
    /// <returns>False if the server is not started; true otherwise (also for empty data).</returns>
    public virtual bool Multicast(ReadOnlySpan<byte> buffer)
    {
        if (!IsStarted)
            return false;
        if (buffer.IsEmpty)
            return true;
        List<TSession>? refused = null;
        var log = _multicastLog;
        lock (log.Lock)
        {
            var sessions = SessionSnapshot;
            if (sessions.Length == 0)
                return true;
            var start = log.Written;
            log.Write(buffer);
            var end = log.Written;
            foreach (var session in sessions)
            {
                if (!ReceivesMulticast(session))
                    session.SkipMulticast(start, end);
                else if (session.OfferMulticast(start, end) == SendStatus.LimitReached)
                    (refused ??= TakeRefusedList()).Add(session);
            }
            log.Publish();
            // Pairs with the fence of a send loop going idle (StreamSessionEngine.NextBatchOrStop).
            Interlocked.MemoryBarrier();
            foreach (var session in sessions)
                session.WakeForMulticast();
        }
        if (refused != null)
            ReportRefused(refused);
        return true;
    }

    /// <summary>Whether <see cref="Multicast(ReadOnlySpan{byte})"/> reaches <paramref name="session"/> (a WebSocket server: only upgraded sessions).</summary>
    private protected virtual bool ReceivesMulticast(StreamSession session) => true;

    private static List<TSession> TakeRefusedList()
    {
        var list = t_refused ?? new List<TSession>();
        t_refused = null;
        return list;
    }

    private void ReportRefused(List<TSession> refused)
    {
        var policy = OptionSlowConsumerPolicy;
        foreach (var session in refused)
            session.ReportMulticastRefusal(policy);
        refused.Clear();
        t_refused = refused;
    }

    /// <summary>Queues text as UTF-8 on every session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(string text) => Multicast(text.AsSpan());

    /// <summary>Queues text as UTF-8 on every session; see <see cref="Multicast(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool Multicast(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Multicast(bytes.Span);
    }

    internal void RegisterSession(TSession session)
    {
        lock (_snapshotLock)
        {
            if (!Sessions.TryAdd(session.Id, session))
                return;
            Volatile.Write(ref _sessionCount, _sessionCount + 1);
            Volatile.Write(ref _snapshot, null);
        }
    }

    internal void UnregisterSession(Guid id)
    {
        lock (_snapshotLock)
        {
            if (!Sessions.TryRemove(id, out _))
                return;
            Volatile.Write(ref _sessionCount, _sessionCount - 1);
            Volatile.Write(ref _snapshot, null);
        }
    }

    /// <summary>Makes the session array again after sessions came or went (or returns the one another thread just made).</summary>
    private TSession[] BuildSnapshot()
    {
        lock (_snapshotLock)
        {
            var snapshot = _snapshot;
            if (snapshot != null)
                return snapshot;
            // The dictionary changes only under this lock, so the count matches it; a subclass that writes to the
            // protected dictionary itself is still bounded by the array.
            snapshot = new TSession[_sessionCount];
            var count = 0;
            foreach (var pair in Sessions)
            {
                if (count == snapshot.Length)
                    break;
                snapshot[count++] = pair.Value;
            }
            if (count < snapshot.Length)
                Array.Resize(ref snapshot, count);
            Volatile.Write(ref _snapshot, snapshot);
            return snapshot;
        }
    }

    internal override void RaiseConnecting(StreamSession session) => OnConnecting((TSession)session);

    internal override void RaiseConnected(StreamSession session) => OnConnected((TSession)session);

    internal override void RaiseDisconnecting(StreamSession session) => OnDisconnecting((TSession)session);

    internal override void RaiseDisconnected(StreamSession session) => OnDisconnected((TSession)session);

    internal override void Unregister(StreamSession session)
    {
        UnregisterSession(session.Id);
        ReleaseAdmission(session.AdmittedEndPoint);
    }

    /// <summary>Called after the listening socket is bound, before it listens; on the thread calling <see cref="Start"/>.</summary>
    protected virtual void OnStarting()
    {
    }

    /// <summary>Called when the server has started; on the thread calling <see cref="Start"/>.</summary>
    protected virtual void OnStarted()
    {
    }

    /// <summary>Called when <see cref="Stop"/> begins, before sessions are disconnected.</summary>
    protected virtual void OnStopping()
    {
    }

    /// <summary>Called when the server has stopped and its sessions have closed.</summary>
    protected virtual void OnStopped()
    {
    }

    /// <summary>Called after the session's own OnConnecting, on the accepting thread.</summary>
    /// <param name="session">The connecting session.</param>
    protected virtual void OnConnecting(TSession session)
    {
    }

    /// <summary>Called after the session's own OnConnected, on the accepting thread, before the session receives anything.</summary>
    /// <param name="session">The connected session.</param>
    protected virtual void OnConnected(TSession session)
    {
    }

    /// <summary>Called after the session's own OnDisconnecting, on the thread that started the disconnect.</summary>
    /// <param name="session">The disconnecting session.</param>
    protected virtual void OnDisconnecting(TSession session)
    {
    }

    /// <summary>Called after the session's own OnDisconnected; the session is unregistered right after.</summary>
    /// <param name="session">The disconnected session.</param>
    protected virtual void OnDisconnected(TSession session)
    {
    }

    /// <summary>
    /// Called when <see cref="CreateSession"/> or one of the server's hooks raised by the accept loop threw. The
    /// connection being accepted is closed; the server goes on accepting. The default writes the exception to
    /// <see cref="System.Diagnostics.Trace"/>.
    /// </summary>
    /// <param name="exception">What was thrown.</param>
    protected virtual void OnHandlerException(Exception exception)
    {
        System.Diagnostics.Trace.TraceError("NetCoreServer: {0} {1} failed to accept a connection: {2}", GetType().Name, Id, exception);
    }

    /// <summary>Called for errors on the listening socket and on accepted sockets (ordinary resets and aborts are not reported).</summary>
    /// <param name="error">The socket error.</param>
    protected virtual void OnError(SocketError error)
    {
    }
}
