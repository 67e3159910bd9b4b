using System;
using System.Collections.Concurrent;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Connections;

/// <summary>
/// A server's registered sessions: the dictionary by id, their count, and a copy-on-write array of them for loops over
/// every session (multicast) that must not allocate. Lock: <c>_lock</c> orders changes of the dictionary, the count and
/// the array; readers take none of it. No user code under it.
/// </summary>
/// <typeparam name="TSession">The server's session type.</typeparam>
internal sealed class SessionRegistry<TSession>
    where TSession : StreamSession
{
    // An aborted session finishes as soon as its loops see the closed socket; only a hook that blocks can delay it.
    private static readonly TimeSpan s_abortWait = TimeSpan.FromSeconds(5);

    private readonly object _lock = new();

    // Dropped (null) when a session comes or goes; the next reader rebuilds it once (docs/design/server.md).
    private TSession[]? _snapshot = Array.Empty<TSession>();

    // Changed with the dictionary under the lock: ConcurrentDictionary.Count takes all of its locks.
    private int _count;

    /// <summary>The sessions by id (the server's protected <c>Sessions</c>).</summary>
    public ConcurrentDictionary<Guid, TSession> Sessions { get; } = new();

    /// <summary>Sessions registered now.</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>The registered sessions as an array that is replaced, never changed, when one comes or goes.</summary>
    public TSession[] Snapshot => Volatile.Read(ref _snapshot) ?? BuildSnapshot();

    /// <summary>Adds a session (no-op if its id is already there).</summary>
    public void Add(TSession session)
    {
        lock (_lock)
        {
            if (!Sessions.TryAdd(session.Id, session))
                return;
            Volatile.Write(ref _count, _count + 1);
            Volatile.Write(ref _snapshot, null);
        }
    }

    /// <summary>Removes a session by id (no-op if it is not there).</summary>
    public void Remove(Guid id)
    {
        lock (_lock)
        {
            if (!Sessions.TryRemove(id, out _))
                return;
            Volatile.Write(ref _count, _count - 1);
            Volatile.Write(ref _snapshot, null);
        }
    }

    /// <summary>Starts a graceful disconnect of every session.</summary>
    public void DisconnectAll()
    {
        foreach (var session in Sessions.Values)
            session.Disconnect();
    }

    /// <summary>
    /// Disconnects <paramref name="sessions"/> for a server stop and waits, bounded by their longest disconnect timeout,
    /// until they have closed; what is left then is closed at once. Inside a hook it only starts the disconnects (the
    /// closes may need that hook to return); on an event loop's thread the loop is handed on before it waits.
    /// </summary>
    public static void Stop(TSession[] sessions)
    {
        foreach (var session in sessions)
            session.DisconnectForStop();
        if (Hooks.InsideAny || sessions.Length == 0)
            return;
        EventLoop.HandOffBeforeWaiting();
        var longest = sessions.Max(s => s.OptionDisconnectTimeout);
        var closed = sessions.Select(s => s.Completion).ToArray();
        if (Task.WaitAll(closed, longest + TimeSpan.FromSeconds(1)))
            return;
        foreach (var session in sessions)
            session.AbortForStop();
        Task.WaitAll(closed, s_abortWait);
    }

    /// <summary>
    /// Drains <paramref name="sessions"/> for <c>StopAsync</c>: each says goodbye its protocol's way (or disconnects
    /// gracefully, bounded by its disconnect timeout), and this completes once all have closed; when
    /// <paramref name="cancellationToken"/> is cancelled first, what is left is closed at once.
    /// </summary>
    public static async Task DrainAsync(TSession[] sessions, CancellationToken cancellationToken)
    {
        foreach (var session in sessions)
            session.BeginDrain();
        if (sessions.Length == 0)
            return;
        var closed = Task.WhenAll(sessions.Select(s => s.Completion));
        try
        {
            await closed.WaitAsync(cancellationToken).ConfigureAwait(false);
            return;
        }
        catch (OperationCanceledException)
        {
            // The host's shutdown time is up: what has not finished is closed now.
        }
        foreach (var session in sessions)
            session.AbortForStop();
        await Task.WhenAny(closed, Task.Delay(s_abortWait, CancellationToken.None)).ConfigureAwait(false);
    }

    /// <summary>Makes the array again after sessions came or went (or returns the one another thread just made).</summary>
    private TSession[] BuildSnapshot()
    {
        lock (_lock)
        {
            var snapshot = _snapshot;
            if (snapshot != null)
                return snapshot;
            // The dictionary changes only under this lock, so the count matches it; a subclass that writes to the
            // protected dictionary itself is still bounded by the array.
            snapshot = new TSession[_count];
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
}
