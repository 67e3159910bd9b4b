using System;
using NetCoreServer.Compat.Caching;
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
public class FileCache : IDisposable
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
    internal const int EntryOverhead = CacheStore.EntryOverhead;

    private static readonly InsertHandler s_addHandler = static (cache, key, value, timeout) => cache.Add(key, value, timeout);

    // The three jobs (docs/design/file-cache.md): the entries, the served directories' files, and (inside each
    // directory) which key names which file.
    private readonly CacheStore _store;
    private readonly StaticFiles _files;

    /// <summary>Creates an empty cache bounded by <see cref="DefaultMaxTotalSize"/>.</summary>
    public FileCache()
        : this(TimeProvider.System)
    {
    }

    /// <summary>Creates an empty cache on a given clock (tests drive timeouts with it).</summary>
    internal FileCache(TimeProvider time)
    {
        _store = new CacheStore(time, DefaultMaxTotalSize);
        _files = new StaticFiles(this, _store);
    }

    /// <summary>
    /// The file whose <see cref="InsertHandler"/> is running on this thread (its path, Content-Type, ETag and
    /// Last-Modified), so a handler that caches a whole HTTP response can put them in; null outside a handler.
    /// </summary>
    internal static StaticFile? LoadingFile => StaticFiles.LoadingFile;

    /// <summary>True when nothing is cached.</summary>
    public bool Empty => Size == 0;

    /// <summary>True when nothing is cached (the same as <see cref="Empty"/>).</summary>
    public bool IsEmpty => Empty;

    /// <summary>How many entries are cached (expired ones are dropped first).</summary>
    public int Size => _store.Count;

    /// <summary>Bytes the cache holds: every value, two bytes per key character and 128 bytes of bookkeeping per entry.</summary>
    public long TotalSize => _store.TotalSize;

    /// <summary>
    /// The most <see cref="TotalSize"/> may reach (default <see cref="DefaultMaxTotalSize"/>, 256 MiB); protects the
    /// process from caching more than it can hold. Lowering it evicts entries read from files at once; values added
    /// by hand stay, and further adds fail until there is room.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public long MaxTotalSize
    {
        get => _store.MaxTotalSize;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            _store.MaxTotalSize = value;
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
        // From an InsertHandler: the entry is the file's, evictable and checked against the disk.
        return _store.Add(key, value, timeout, _files.LoadingOrigin);
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
        var entry = _files.Lookup(key, loadMissing: true);
        value = entry?.Value ?? [];
        return entry != null;
    }

    /// <summary>Removes the entry under <paramref name="key"/>.</summary>
    /// <param name="key">The key.</param>
    /// <returns>True when an entry was removed.</returns>
    public bool Remove(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        return _store.Remove(key);
    }

    /// <summary>
    /// Caches the files below directory <paramref name="path"/> under keys "<paramref name="prefix"/>/relative/path"
    /// (a prefix of "/" gives "/relative/path"), replacing an earlier insert of the same path. Runs the handler on this thread.
    /// </summary>
    /// <remarks>
    /// Files are read now, as long as they fit under <see cref="MaxTotalSize"/>; the others, and files created later, are
    /// read on their first lookup. Symlinked directories are not walked now; links to files and directories inside
    /// <paramref name="path"/> are followed on lookup, links leading outside never.
    /// </remarks>
    /// <param name="path">The directory to serve.</param>
    /// <param name="prefix">Key prefix (default "/"); a trailing slash is ignored.</param>
    /// <param name="filter">File name pattern (default "*.*", every file; "*.html", "app-?.js").</param>
    /// <param name="timeout">How long each file entry lives before it is read again; zero or negative (default) for as long as it is current.</param>
    /// <param name="handler">Decides what is cached for each file (default: <c>cache.Add(key, value, timeout)</c>).</param>
    /// <returns>False when the directory does not exist, the cache is disposed, or the handler returned false.</returns>
    public bool InsertPath(string path, string prefix = "/", string filter = "*.*", TimeSpan timeout = default, InsertHandler? handler = null)
        => InsertStaticPath(path, prefix, filter, timeout, handler ?? s_addHandler, streamsLarge: false);

    /// <summary>True when <paramref name="path"/> was inserted (the same string given to <see cref="InsertPath"/>) and not removed.</summary>
    /// <param name="path">The directory as given to <see cref="InsertPath"/>.</param>
    public bool FindPath(string path) => _files.Contains(path);

    /// <summary>Removes an inserted directory and every entry read from it.</summary>
    /// <param name="path">The directory as given to <see cref="InsertPath"/>.</param>
    /// <returns>True when the path was inserted.</returns>
    public bool RemovePath(string path) => _files.Remove(path);

    /// <summary>Removes every entry and every inserted path.</summary>
    public void Clear()
    {
        // Directories first: a load under way then adds nothing after the entries are gone.
        _files.Clear(dispose: false);
        _store.Clear(dispose: false);
    }

    /// <summary>Clears the cache; afterwards it stays empty (adds and inserts return false).</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>
    /// InsertPath, with <paramref name="streamsLarge"/> (the HTTP servers' static content): a file too large for
    /// <see cref="MaxTotalSize"/> is found by <see cref="FindForRequest"/> as one to stream from the disk.
    /// </summary>
    internal bool InsertStaticPath(string path, string prefix, string filter, TimeSpan timeout, InsertHandler handler, bool streamsLarge)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(prefix);
        ArgumentNullException.ThrowIfNull(filter);
        return _files.Insert(path, prefix, filter, timeout, handler, streamsLarge);
    }

    /// <summary>
    /// Finds what is cached for an HTTP request target, for HttpSession and HttpsSession (see
    /// <see cref="StaticFiles.FindForRequest"/>): the exact path among entries first, then the path decoded once and
    /// checked, reading a changed or not yet cached file below an inserted directory.
    /// </summary>
    /// <param name="target">The request target ("/css/site.css?v=2").</param>
    /// <param name="content">The cached value and, for an entry read from a file, the file's validators.</param>
    /// <returns>Found; Streamed (a file too large to cache: its validators only); NotFound; or Refused when the path is malformed or tries to leave the served directories (answer 400 or 404).</returns>
    internal StaticLookup FindForRequest(string target, out CachedContent content)
    {
        ArgumentNullException.ThrowIfNull(target);
        return _files.FindForRequest(target, out content);
    }

    /// <summary>Clears the cache when <paramref name="disposingManagedResources"/>; override to release what a subclass holds.</summary>
    /// <param name="disposingManagedResources">True from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposingManagedResources)
    {
        if (!disposingManagedResources)
            return;
        _files.Clear(dispose: true);
        _store.Clear(dispose: true);
    }
}
