using System;
using System.Collections.Concurrent;
using System.Collections.Immutable;

namespace NetCoreServer.Redis;

/// <summary>
/// The groups each local session is in, by session id. Sets are immutable and replaced on join and leave, so the
/// multicast filter reads them without a lock; an entry goes when its session closes (no leak past a connection).
/// </summary>
internal sealed class GroupMembership
{
    private readonly ConcurrentDictionary<Guid, ImmutableHashSet<string>> _bySession = new();

    /// <summary>Sessions in at least one group.</summary>
    public int Sessions => _bySession.Count;

    /// <summary>False if the session was in the group already, or has closed.</summary>
    public bool Join(StreamSession session, string group)
    {
        while (true)
        {
            if (_bySession.TryGetValue(session.Id, out var set))
            {
                if (set.Contains(group))
                    return false;
                if (_bySession.TryUpdate(session.Id, set.Add(group), set))
                    break;
            }
            else if (_bySession.TryAdd(session.Id, ImmutableHashSet.Create(StringComparer.Ordinal, group)))
            {
                break;
            }
        }
        // Closed meanwhile: its OnSessionClosed may have run before the entry was added.
        if (session.IsConnected)
            return true;
        Remove(session.Id);
        return false;
    }

    public bool Leave(StreamSession session, string group)
    {
        while (_bySession.TryGetValue(session.Id, out var set))
        {
            if (!set.Contains(group))
                return false;
            var next = set.Remove(group);
            if (next.IsEmpty ? _bySession.TryRemove(new(session.Id, set)) : _bySession.TryUpdate(session.Id, next, set))
                return true;
        }
        return false;
    }

    public ImmutableHashSet<string> GroupsOf(Guid session)
        => _bySession.TryGetValue(session, out var set) ? set : ImmutableHashSet<string>.Empty;

    public bool IsMember(StreamSession session, string group)
        => _bySession.TryGetValue(session.Id, out var set) && set.Contains(group);

    /// <summary>The multicast filter of a group: reads the immutable sets only, as a filter under the log's lock must.</summary>
    public Func<StreamSession, bool> Filter(string group) => session => IsMember(session, group);

    public void Remove(Guid session) => _bySession.TryRemove(session, out _);

    public void Clear() => _bySession.Clear();
}
