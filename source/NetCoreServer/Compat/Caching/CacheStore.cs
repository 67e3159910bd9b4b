using System;
using System.Collections.Generic;
using System.Threading;

namespace NetCoreServer.Compat.Caching;

/// <summary>
/// The key-value part of <see cref="FileCache"/>: entries by key with optional expiry, bounded by a total size, where
/// entries read from files are evicted least recently used first and values added by hand never are. Knows nothing of
/// files but whether an entry has an origin and whether that origin's directory was removed. Owns its lock; no user
/// code runs under it.
/// </summary>
internal sealed class CacheStore
{
    /// <summary>Bytes charged for each entry besides its value and key (the store's bookkeeping).</summary>
    public const int EntryOverhead = 128;

    private readonly Lock _lock = new();
    private readonly TimeProvider _time;
    private readonly Dictionary<string, CacheEntry> _entries = new(StringComparer.Ordinal);

    // Entries read from files, most recently used first: the ones eviction may drop.
    private readonly LinkedList<CacheEntry> _fileEntries = new();

    // Entries with a timeout by expiry time; replaced and removed entries stay until they come up (see SweepLocked).
    private PriorityQueue<CacheEntry, long> _expiries = new();

    private long _totalSize;
    private long _fileEntriesSize;
    private long _maxTotalSize;
    private bool _disposed;

    // Set once anything was put in (an entry or a directory), never cleared: until then a request's lookup has nothing
    // to find and takes no lock (a server that serves no static content pays nothing for the cache on every GET).
    private volatile bool _used;

    public CacheStore(TimeProvider time, long maxTotalSize)
    {
        _time = time;
        _maxTotalSize = maxTotalSize;
    }

    /// <summary>The store's clock, also the one that dates files read into it.</summary>
    public TimeProvider Time => _time;

    /// <summary>False until anything was added or a directory inserted; then a lookup may find something.</summary>
    public bool Used => _used;

    /// <summary>Live entries (expired ones are dropped first).</summary>
    public int Count
    {
        get
        {
            lock (_lock)
            {
                SweepLocked(Now());
                return _entries.Count;
            }
        }
    }

    public long TotalSize
    {
        get
        {
            lock (_lock)
                return _totalSize;
        }
    }

    /// <summary>The bound on <see cref="TotalSize"/>; lowering it evicts file entries at once.</summary>
    public long MaxTotalSize
    {
        get
        {
            lock (_lock)
                return _maxTotalSize;
        }
        set
        {
            lock (_lock)
            {
                _maxTotalSize = value;
                while (_totalSize > _maxTotalSize && _fileEntries.Last is { } oldest)
                    RemoveLocked(oldest.Value);
            }
        }
    }

    /// <summary>What an entry of <paramref name="valueLength"/> bytes under <paramref name="key"/> adds to <see cref="TotalSize"/>.</summary>
    public static long CostOf(long valueLength, string key) => valueLength + 2L * key.Length + EntryOverhead;

    /// <summary>A lookup may find something from now on (a directory was inserted).</summary>
    public void MarkUsed() => _used = true;

    /// <summary>
    /// Caches <paramref name="value"/> under <paramref name="key"/>, replacing what was there, evicting file entries
    /// for room. Refused (the previous value stays) when it cannot fit, when disposed, or when
    /// <paramref name="origin"/>'s directory has been removed.
    /// </summary>
    public bool Add(string key, byte[] value, TimeSpan timeout, FileOrigin? origin)
    {
        var now = Now();
        lock (_lock)
        {
            if (_disposed || origin is { Directory.Removed: true })
                return false;
            SweepLocked(now);
            _entries.TryGetValue(key, out var existing);
            var entry = new CacheEntry(key, value, ExpiryFrom(now, timeout), origin);
            if (!MakeRoomLocked(entry.Cost - (existing?.Cost ?? 0), existing))
                return false;
            if (existing != null)
                RemoveLocked(existing);
            InsertLocked(entry);
            return true;
        }
    }

    /// <summary>The live entry under <paramref name="key"/>, or null (an expired one is dropped); marks a file entry as just used.</summary>
    public CacheEntry? Get(string key)
    {
        var now = Now();
        lock (_lock)
        {
            if (_disposed || !_entries.TryGetValue(key, out var entry))
                return null;
            if (entry.ExpiresAt <= now)
            {
                RemoveLocked(entry);
                return null;
            }
            if (entry.Node is { } node && node != _fileEntries.First)
            {
                _fileEntries.Remove(node);
                _fileEntries.AddFirst(node);
            }
            return entry;
        }
    }

    /// <summary>
    /// True when a value of <paramref name="length"/> bytes under <paramref name="key"/> could be cached: not disposed,
    /// not larger than the bound, and with <paramref name="withoutEvicting"/>, fitting beside what is cached now.
    /// </summary>
    public bool CouldTake(long length, string key, bool withoutEvicting)
    {
        var cost = CostOf(length, key);
        lock (_lock)
            return !_disposed && cost <= _maxTotalSize && (!withoutEvicting || _totalSize + cost <= _maxTotalSize);
    }

    /// <summary>Removes the entry under <paramref name="key"/>.</summary>
    /// <returns>True when there was one.</returns>
    public bool Remove(string key)
    {
        lock (_lock)
        {
            if (!_entries.TryGetValue(key, out var entry))
                return false;
            RemoveLocked(entry);
            return true;
        }
    }

    /// <summary>Removes <paramref name="entry"/> if it is still the one cached under its key (not since replaced).</summary>
    public void RemoveIfCurrent(CacheEntry entry)
    {
        lock (_lock)
        {
            if (_entries.TryGetValue(entry.Key, out var current) && current == entry)
                RemoveLocked(entry);
        }
    }

    /// <summary>Removes every entry read from <paramref name="directory"/> (after it was marked removed, so none comes back).</summary>
    public void RemoveFrom(ServedDirectory directory)
    {
        lock (_lock)
        {
            for (var node = _fileEntries.First; node != null;)
            {
                var next = node.Next;
                if (node.Value.Origin!.Directory == directory)
                    RemoveLocked(node.Value);
                node = next;
            }
        }
    }

    /// <summary>Removes every entry; with <paramref name="dispose"/>, every later add is refused and every lookup finds nothing.</summary>
    public void Clear(bool dispose)
    {
        lock (_lock)
        {
            _entries.Clear();
            _fileEntries.Clear();
            _expiries.Clear();
            _totalSize = 0;
            _fileEntriesSize = 0;
            _disposed |= dispose;
        }
    }

    private long Now() => _time.GetTimestamp();

    private long ExpiryFrom(long now, TimeSpan timeout)
    {
        if (timeout <= TimeSpan.Zero)
            return long.MaxValue;
        var ticks = timeout.TotalSeconds * _time.TimestampFrequency;
        return ticks >= long.MaxValue - now ? long.MaxValue : now + (long)ticks;
    }

    // Frees room for `needed` more bytes by evicting file entries (least recently used first), never `keep`. Checks
    // first whether eviction can free enough, so a refused add evicts nothing.
    private bool MakeRoomLocked(long needed, CacheEntry? keep)
    {
        var excess = _totalSize + needed - _maxTotalSize;
        if (excess <= 0)
            return true;
        var evictable = _fileEntriesSize - (keep?.Node != null ? keep.Cost : 0);
        if (evictable < excess)
            return false;
        for (var node = _fileEntries.Last; excess > 0 && node != null;)
        {
            var previous = node.Previous;
            if (node.Value != keep)
            {
                excess -= node.Value.Cost;
                RemoveLocked(node.Value);
            }
            node = previous;
        }
        return true;
    }

    private void InsertLocked(CacheEntry entry)
    {
        _used = true;
        _entries[entry.Key] = entry;
        _totalSize += entry.Cost;
        if (entry.Origin != null)
        {
            entry.Node = _fileEntries.AddFirst(entry);
            _fileEntriesSize += entry.Cost;
        }
        if (entry.ExpiresAt != long.MaxValue)
        {
            _expiries.Enqueue(entry, entry.ExpiresAt);
            // Replaced entries leave stale items behind; rebuild before they outnumber the live ones.
            if (_expiries.Count > 64 && _expiries.Count > 2 * _entries.Count)
                RebuildExpiriesLocked();
        }
    }

    private void RemoveLocked(CacheEntry entry)
    {
        _entries.Remove(entry.Key);
        _totalSize -= entry.Cost;
        if (entry.Node != null)
        {
            _fileEntries.Remove(entry.Node);
            entry.Node = null;
            _fileEntriesSize -= entry.Cost;
        }
    }

    // Drops entries whose time has come; stale queue items (an entry since replaced or removed) are discarded.
    private void SweepLocked(long now)
    {
        while (_expiries.TryPeek(out var entry, out var expiresAt) && expiresAt <= now)
        {
            _expiries.Dequeue();
            if (_entries.TryGetValue(entry.Key, out var current) && current == entry)
                RemoveLocked(entry);
        }
    }

    private void RebuildExpiriesLocked()
    {
        var rebuilt = new PriorityQueue<CacheEntry, long>();
        foreach (var entry in _entries.Values)
        {
            if (entry.ExpiresAt != long.MaxValue)
                rebuilt.Enqueue(entry, entry.ExpiresAt);
        }
        _expiries = rebuilt;
    }
}
