using System;
using System.Collections.Generic;
using System.Threading;
using NetCoreServer.Protocols.Http;


namespace NetCoreServer;

/// <summary>
/// Caches values, and the files of directories, in memory by key (a URL path such as "/css/site.css"), with optional
/// timeouts: NetCoreServer's file cache, bounded and safe to serve from. Thread-safe; no user code (an
/// <see cref="InsertHandler"/>) runs while the cache's lock is held.
/// </summary>
/// <remarks>
/// <para>
/// <b>Bounded.</b> <see cref="TotalSize"/> (the bytes of every value plus 128 bytes per entry and two bytes per key
/// character) never exceeds <see cref="MaxTotalSize"/> (default 256 MiB). Entries read from files are evicted least
/// recently used first and read again when asked for; values given to <see cref="Add"/> are never evicted (only their
/// timeout removes them), so an <see cref="Add"/> that cannot fit returns false.
/// </para>
/// <para>
/// <b>Changes on disk.</b> A lookup of an entry read from a file compares the file's length and last write time with
/// those it had when read, and reads it again when they differ; a file created after <see cref="InsertPath"/> is read
/// on its first lookup, a deleted one disappears. A rewrite that keeps both the length and the write time goes
/// unnoticed (docs/design/http-responses.md).
/// </para>
/// <para>
/// <b>Staying inside.</b> Keys are mapped to files below an inserted directory by path segments checked one by one:
/// "." and ".." segments, backslashes, NUL and control characters and rooted names are refused, and a symlink is
/// followed only while its target stays inside the directory. URL decoding (%2e%2e, %2f) is done once, before this
/// check, by the HTTP lookup (see <c>HttpSession</c>).
/// </para>
/// <para>
/// Differences from NetCoreServer: timeouts are enforced (a file entry is read again after its timeout); file names
/// are keys as they are (not URL-decoded); the filter applies to the initial load too; a file that cannot be read is
/// skipped instead of failing <see cref="InsertPath"/>.
/// </para>
/// </remarks>
public partial class FileCache : IDisposable
{
    /// <summary>
    /// Called for every file read from an inserted directory, with its key and content; it decides what is cached
    /// under the key (NetCoreServer's HTTP server caches a whole HTTP response). Runs on the thread that inserts
    /// the path or looks the key up, never under the cache's lock; the content array is the handler's to keep.
    /// </summary>
    /// <param name="cache">The cache reading the file.</param>
    /// <param name="key">The key of the file: the path's prefix, "/" and the path below the directory.</param>
    /// <param name="value">The content of the file.</param>
    /// <param name="timeout">The timeout given to <see cref="InsertPath"/>.</param>
    /// <returns>True when the file was cached; false stops <see cref="InsertPath"/>, which then returns false.</returns>
    public delegate bool InsertHandler(FileCache cache, string key, byte[] value, TimeSpan timeout);

    /// <summary>Default for <see cref="MaxTotalSize"/>: 256 MiB.</summary>
    public const long DefaultMaxTotalSize = 256L * 1024 * 1024;

    /// <summary>Bytes charged to <see cref="TotalSize"/> for each entry besides its value and key (the cache's bookkeeping).</summary>
    internal const int EntryOverhead = 128;

    /// <summary>What an entry of <paramref name="valueLength"/> bytes under <paramref name="key"/> adds to <see cref="TotalSize"/>.</summary>
    private static long CostOf(long valueLength, string key) => valueLength + 2L * key.Length + EntryOverhead;

    private readonly Lock _lock = new();
    private readonly TimeProvider _time;
    private readonly Dictionary<string, Entry> _entries = new(StringComparer.Ordinal);

    // Entries read from files, most recently used first: the ones eviction may drop.
    private readonly LinkedList<Entry> _fileEntries = new();

    // Entries with a timeout by expiry time; replaced and removed entries stay until they come up (see SweepLocked).
    private PriorityQueue<Entry, long> _expiries = new();

    private long _totalSize;
    private long _fileEntriesSize;
    private long _maxTotalSize = DefaultMaxTotalSize;
    private bool _disposed;

    // Set once anything was put in (an entry or a directory), never cleared: until then a request's lookup has nothing
    // to find and takes no lock (a server that serves no static content pays nothing for the cache on every GET).
    private volatile bool _used;

    /// <summary>Creates an empty cache bounded by <see cref="DefaultMaxTotalSize"/>.</summary>
    public FileCache()
        : this(TimeProvider.System)
    {
    }

    /// <summary>Creates an empty cache on a given clock (tests drive timeouts with it).</summary>
    internal FileCache(TimeProvider time) => _time = time;

    /// <summary>True when nothing is cached.</summary>
    public bool Empty => Size == 0;

    /// <summary>True when nothing is cached (the same as <see cref="Empty"/>).</summary>
    public bool IsEmpty => Empty;

    /// <summary>How many entries are cached (expired ones are dropped first).</summary>
    public int Size
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

    /// <summary>Bytes the cache holds: every value, two bytes per key character and 128 bytes of bookkeeping per entry.</summary>
    public long TotalSize
    {
        get
        {
            lock (_lock)
                return _totalSize;
        }
    }

    /// <summary>
    /// The most <see cref="TotalSize"/> may reach (default <see cref="DefaultMaxTotalSize"/>, 256 MiB); protects the
    /// process from caching more than it can hold. Lowering it evicts entries read from files at once; values added
    /// by hand stay, and further adds fail until there is room.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public long MaxTotalSize
    {
        get
        {
            lock (_lock)
                return _maxTotalSize;
        }
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            lock (_lock)
            {
                _maxTotalSize = value;
                while (_totalSize > _maxTotalSize && _fileEntries.Last is { } oldest)
                    RemoveLocked(oldest.Value);
            }
        }
    }

    /// <summary>
    /// Caches <paramref name="value"/> under <paramref name="key"/>, replacing what was there. The array is kept as
    /// it is (not copied) and never changed by the cache, so it may be sent by reference while cached.
    /// </summary>
    /// <param name="key">The key, compared ordinally.</param>
    /// <param name="value">The value.</param>
    /// <param name="timeout">How long the entry lives; zero or negative (the default) keeps it until removed.</param>
    /// <returns>False when it cannot fit under <see cref="MaxTotalSize"/>, or the cache is disposed; the previous value then stays.</returns>
    public bool Add(string key, byte[] value, TimeSpan timeout = default)
    {
        ArgumentNullException.ThrowIfNull(key);
        ArgumentNullException.ThrowIfNull(value);
        var source = t_loading is { } loading && loading.Cache == this ? loading.Source : null;
        var now = Now();
        lock (_lock)
        {
            if (_disposed || source is { Path.Removed: true })
                return false;
            SweepLocked(now);
            _entries.TryGetValue(key, out var existing);
            var entry = new Entry(key, value, ExpiryFrom(now, timeout), source);
            if (!MakeRoomLocked(entry.Cost - (existing?.Cost ?? 0), existing))
                return false;
            if (existing != null)
                RemoveLocked(existing);
            InsertLocked(entry);
            return true;
        }
    }

    /// <summary>
    /// Finds the value cached under <paramref name="key"/>. An entry read from a file is checked against the file
    /// first (read again when it changed, dropped when it is gone); a key below an inserted directory that is not
    /// cached yet is read from its file.
    /// </summary>
    /// <param name="key">The key.</param>
    /// <returns>(true, value) when found; (false, an empty array) otherwise.</returns>
    public (bool, byte[]) Find(string key)
        => TryGetValue(key, out var value) ? (true, value) : (false, []);

    /// <summary>Finds the value cached under <paramref name="key"/>, as <see cref="Find"/> does.</summary>
    /// <param name="key">The key.</param>
    /// <param name="value">The value; an empty array when not found.</param>
    /// <returns>True when found.</returns>
    public bool TryGetValue(string key, out byte[] value)
    {
        ArgumentNullException.ThrowIfNull(key);
        var entry = Lookup(key, loadMissing: true);
        value = entry?.Value ?? [];
        return entry != null;
    }

    /// <summary>Removes the entry under <paramref name="key"/>.</summary>
    /// <param name="key">The key.</param>
    /// <returns>True when an entry was removed.</returns>
    public bool Remove(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        lock (_lock)
        {
            if (!_entries.TryGetValue(key, out var entry))
                return false;
            RemoveLocked(entry);
            return true;
        }
    }

    /// <summary>Removes every entry and every inserted path.</summary>
    public void Clear()
    {
        lock (_lock)
            ClearLocked();
    }

    /// <summary>Clears the cache; afterwards it stays empty (adds and inserts return false).</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Clears the cache when <paramref name="disposingManagedResources"/>; override to release what a subclass holds.</summary>
    /// <param name="disposingManagedResources">True from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposingManagedResources)
    {
        if (!disposingManagedResources)
            return;
        lock (_lock)
        {
            ClearLocked();
            _disposed = true;
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

    // The live entry under key, or null; an expired one is removed. Marks a file entry as just used.
    private Entry? GetLiveLocked(string key, long now)
    {
        if (!_entries.TryGetValue(key, out var entry))
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

    // Frees room for `needed` more bytes by evicting file entries (least recently used first), never `keep`. Checks
    // first whether eviction can free enough, so a refused add evicts nothing.
    private bool MakeRoomLocked(long needed, Entry? keep)
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

    private void InsertLocked(Entry entry)
    {
        _used = true;
        _entries[entry.Key] = entry;
        _totalSize += entry.Cost;
        if (entry.Source is { } source)
        {
            entry.Node = _fileEntries.AddFirst(entry);
            _fileEntriesSize += entry.Cost;
            source.Path.Keys.Add(entry.Key);
        }
        if (entry.ExpiresAt != long.MaxValue)
        {
            _expiries.Enqueue(entry, entry.ExpiresAt);
            // Replaced entries leave stale items behind; rebuild before they outnumber the live ones.
            if (_expiries.Count > 64 && _expiries.Count > 2 * _entries.Count)
                RebuildExpiriesLocked();
        }
    }

    private void RemoveLocked(Entry entry)
    {
        _entries.Remove(entry.Key);
        _totalSize -= entry.Cost;
        if (entry.Node != null)
        {
            _fileEntries.Remove(entry.Node);
            entry.Node = null;
            _fileEntriesSize -= entry.Cost;
            entry.Source!.Path.Keys.Remove(entry.Key);
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
        var rebuilt = new PriorityQueue<Entry, long>();
        foreach (var entry in _entries.Values)
        {
            if (entry.ExpiresAt != long.MaxValue)
                rebuilt.Enqueue(entry, entry.ExpiresAt);
        }
        _expiries = rebuilt;
    }

    private void ClearLocked()
    {
        foreach (var path in _paths)
            path.Removed = true;
        _paths.Clear();
        _entries.Clear();
        _fileEntries.Clear();
        _expiries.Clear();
        _totalSize = 0;
        _fileEntriesSize = 0;
    }

    /// <summary>One cached value. Immutable but for its place in the eviction list, which the lock guards.</summary>
    private sealed class Entry(string key, byte[] value, long expiresAt, FileSource? source)
    {
        public string Key { get; } = key;

        public byte[] Value { get; } = value;

        /// <summary>Timestamp (the cache's clock) at which it expires; long.MaxValue for never.</summary>
        public long ExpiresAt { get; } = expiresAt;

        /// <summary>The file it was read from; null for a value added by hand.</summary>
        public FileSource? Source { get; } = source;

        /// <summary>What it counts toward <see cref="TotalSize"/>.</summary>
        public long Cost { get; } = CostOf(value.LongLength, key);

        /// <summary>Its node in the eviction list while cached, for file entries.</summary>
        public LinkedListNode<Entry>? Node { get; set; }
    }
}
