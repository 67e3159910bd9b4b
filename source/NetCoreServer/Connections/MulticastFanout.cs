using System;
using System.Collections.Generic;
using System.Threading;
using NetCoreServer.Engine;

namespace NetCoreServer.Connections;

/// <summary>
/// A server's multicast: each message is written once into the server's <see cref="MulticastLog"/>, and every
/// registered session sends from its own position in it. Lock: the log's lock, held from the write to the wake-up;
/// refusals are counted and reported (user code: OnSlowConsumer) after it is released.
/// </summary>
/// <remarks>
/// Each session's send limit is asked once per credit, not once per message: an accepted offer returns how many more
/// bytes the session takes without asking (its room, at most an eighth of its limit), kept here in an array beside the
/// session snapshot, and messages are charged against it. Asking reads fields of three objects that the session's send
/// loop keeps writing, through six dependent loads; figures in docs/design/multicast-log.md (issue 23).
/// </remarks>
/// <typeparam name="TSession">The server's session type.</typeparam>
internal sealed class MulticastFanout<TSession>
    where TSession : StreamSession
{
    // Sessions that skipped the message, reported once the log's lock is released; reused per thread (taken while in
    // use, so a Multicast from one of those reports gets its own list).
    [ThreadStatic]
    private static List<TSession>? t_refused;

    private readonly SessionRegistry<TSession> _sessions;

    // Bytes each session of _creditsFor (a snapshot) takes before it is asked again; under the log's lock.
    private TSession[]? _creditsFor;
    private long[] _credits = [];

    // Counted after the lock, from the refused list: the fast path pays nothing for them.
    private long _skipped;
    private long _slowConsumerEpisodes;

    public MulticastFanout(SessionRegistry<TSession> sessions) => _sessions = sessions;

    /// <summary>The log every session of the server joins when it is registered.</summary>
    public MulticastLog Log { get; } = new();

    /// <summary>Messages not queued on a session because of its send limit, one per session and message.</summary>
    public long Skipped => Interlocked.Read(ref _skipped);

    /// <summary>Slow-consumer episodes begun: a session skipping after it had kept up, or one disconnected for it.</summary>
    public long SlowConsumerEpisodes => Interlocked.Read(ref _slowConsumerEpisodes);

    /// <summary>Zeroes the counters (a server's Start).</summary>
    public void ResetCounters()
    {
        Interlocked.Exchange(ref _skipped, 0);
        Interlocked.Exchange(ref _slowConsumerEpisodes, 0);
    }

    /// <summary>
    /// Queues <paramref name="buffer"/> (not empty) on every session <paramref name="receives"/> admits; the others skip
    /// it. A session whose send limit it would pass is handled by <paramref name="policy"/>.
    /// </summary>
    public void Publish(ReadOnlySpan<byte> buffer, Func<StreamSession, bool> receives, SlowConsumerPolicy policy)
    {
        List<TSession>? refused = null;
        var log = Log;
        SendCork.SettleThisThread();
        lock (log.Lock)
        {
            var sessions = _sessions.Snapshot;
            if (sessions.Length == 0)
                return;
            var credits = CreditsFor(sessions);
            var start = log.Written;
            log.Write(buffer);
            var end = log.Written;
            var length = end - start;
            for (var i = 0; i < sessions.Length; i++)
            {
                var session = sessions[i];
                if (!receives(session))
                {
                    session.SkipMulticast(start, end);
                    credits[i] = 0;
                }
                else if (credits[i] >= length)
                {
                    credits[i] -= length;
                }
                else if (session.OfferMulticast(start, end, out credits[i]) == SendStatus.LimitReached)
                {
                    (refused ??= TakeRefusedList()).Add(session);
                }
            }
            log.Publish();
            // Pairs with the fence of a send loop going idle (StreamSessionEngine.NextBatchOrStop).
            Interlocked.MemoryBarrier();
            foreach (var session in sessions)
                session.WakeForMulticast();
        }
        if (refused != null)
            Report(refused, policy);
    }

    // A new snapshot (a session came or went) starts every session's credit at zero: each is asked at the next message.
    private long[] CreditsFor(TSession[] sessions)
    {
        if (!ReferenceEquals(_creditsFor, sessions))
        {
            _credits = new long[sessions.Length];
            _creditsFor = sessions;
        }
        return _credits;
    }

    private static List<TSession> TakeRefusedList()
    {
        var list = t_refused ?? new List<TSession>();
        t_refused = null;
        return list;
    }

    private void Report(List<TSession> refused, SlowConsumerPolicy policy)
    {
        Interlocked.Add(ref _skipped, refused.Count);
        foreach (var session in refused)
        {
            if (session.ReportMulticastRefusal(policy))
                Interlocked.Increment(ref _slowConsumerEpisodes);
        }
        refused.Clear();
        t_refused = refused;
    }
}
