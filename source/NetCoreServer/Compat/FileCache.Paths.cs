using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Enumeration;
using NetCoreServer.Protocols.Http;


namespace NetCoreServer;

public partial class FileCache
{
    // Directories deeper than this below an inserted path are not read by InsertPath (they still load on lookup).
    private const int MaxInsertDepth = 64;

    private static readonly InsertHandler s_addHandler = static (cache, key, value, timeout) => cache.Add(key, value, timeout);

    // The file being read on this thread while its handler runs: Add attaches it to what the handler caches.
    [ThreadStatic]
    private static LoadContext? t_loading;

    // Inserted directories in insertion order; the lock guards the list and each path's Keys and Removed.
    private readonly List<CachedPath> _paths = [];

    /// <summary>
    /// The file whose <see cref="InsertHandler"/> is running on this thread (its path, Content-Type, ETag and
    /// Last-Modified), so a handler that caches a whole HTTP response can put them in; null outside a handler.
    /// </summary>
    internal static StaticFile? LoadingFile => t_loading?.Source.File;

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

    /// <summary>
    /// InsertPath, with <paramref name="streamsLarge"/>
    /// (the HTTP servers' static content), a file too large for <see cref="MaxTotalSize"/> is found by
    /// <see cref="FindForRequest"/> as one to stream from the disk.
    /// </summary>
    internal bool InsertStaticPath(string path, string prefix, string filter, TimeSpan timeout, InsertHandler handler, bool streamsLarge)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(prefix);
        ArgumentNullException.ThrowIfNull(filter);
        RemovePath(path);
        if (!Directory.Exists(path) || StaticPath.RealPath(path) is not { } realRoot || !Directory.Exists(realRoot))
            return false;
        var inserted = new CachedPath(path, prefix, realRoot, filter, timeout, handler) { StreamsLarge = streamsLarge };
        lock (_lock)
        {
            if (_disposed)
                return false;
            _used = true;
            _paths.Add(inserted);
        }
        return LoadTree(inserted);
    }

    /// <summary>True when <paramref name="path"/> was inserted (the same string given to <see cref="InsertPath"/>) and not removed.</summary>
    /// <param name="path">The directory as given to <see cref="InsertPath"/>.</param>
    public bool FindPath(string path)
    {
        lock (_lock)
            return _paths.Exists(p => p.Path == path);
    }

    /// <summary>Removes an inserted directory and every entry read from it.</summary>
    /// <param name="path">The directory as given to <see cref="InsertPath"/>.</param>
    /// <returns>True when the path was inserted.</returns>
    public bool RemovePath(string path)
    {
        lock (_lock)
        {
            var index = _paths.FindIndex(p => p.Path == path);
            if (index < 0)
                return false;
            var removed = _paths[index];
            _paths.RemoveAt(index);
            removed.Removed = true;
            string[] keys = [.. removed.Keys];
            foreach (var key in keys)
            {
                if (_entries.TryGetValue(key, out var entry) && entry.Source?.Path == removed)
                    RemoveLocked(entry);
            }
            removed.Keys.Clear();
            return true;
        }
    }

    /// <summary>
    /// The live entry under <paramref name="key"/>, checked against its file: read again when the file changed,
    /// dropped when it is gone; with <paramref name="loadMissing"/>, a missing key below an inserted directory is
    /// read from its file.
    /// </summary>
    private Entry? Lookup(string key, bool loadMissing)
    {
        Entry? entry;
        lock (_lock)
        {
            if (_disposed)
                return null;
            entry = GetLiveLocked(key, Now());
        }
        if (entry == null)
            return loadMissing && LoadKey(key) ? Peek(key) : null;
        if (entry.Source is not { } source || source.File.IsCurrent())
            return entry;
        lock (_lock)
        {
            if (_entries.TryGetValue(key, out var current) && current == entry)
                RemoveLocked(entry);
        }
        return Load(source.Path, source.Key, source.Segments, skipWhenFull: false) == LoadResult.Loaded ? Peek(key) : null;
    }

    private Entry? Peek(string key)
    {
        lock (_lock)
            return _disposed ? null : GetLiveLocked(key, Now());
    }

    // Reads the file a key names below the first inserted directory that has it.
    private bool LoadKey(string key)
    {
        CachedPath[] paths;
        lock (_lock)
            paths = _paths.ToArray();
        foreach (var path in paths)
        {
            if (path.TrySplit(key, out var segments) && Load(path, key, segments, skipWhenFull: false) == LoadResult.Loaded)
                return true;
        }
        return false;
    }

    // Walks the inserted directory (real directories only) and reads every file that matches the filter.
    private bool LoadTree(CachedPath path)
    {
        var pending = new Stack<string[]>();
        pending.Push([]);
        while (pending.TryPop(out var directory))
        {
            if (path.Removed)
                return false;
            foreach (var (name, isDirectory) in ListDirectory(Path.Join(path.RealRoot, Path.Join(directory))))
            {
                if (!StaticPath.IsSafeSegment(name))
                    continue;
                string[] segments = [.. directory, name];
                if (isDirectory)
                {
                    if (segments.Length < MaxInsertDepth)
                        pending.Push(segments);
                    continue;
                }
                if (Load(path, path.KeyFor(segments), segments, skipWhenFull: true) == LoadResult.Refused)
                    return false;
            }
        }
        return true;
    }

    // Names in a directory, with whether each is a real directory (not a symlink to one); empty when unreadable.
    private static List<(string Name, bool IsDirectory)> ListDirectory(string directory)
    {
        var result = new List<(string, bool)>();
        try
        {
            foreach (var item in new DirectoryInfo(directory).EnumerateFileSystemInfos())
            {
                // A symlink's attributes carry ReparsePoint on every platform; its target is checked on lookup.
                if (item is DirectoryInfo && item.Attributes.HasFlag(FileAttributes.ReparsePoint))
                    continue;
                result.Add((item.Name, item is DirectoryInfo));
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Gone or unreadable while listed: what was listed so far is kept.
        }
        return result;
    }

    // Reads one file below an inserted directory and hands it to the path's handler, outside the lock.
    private LoadResult Load(CachedPath path, string key, string[] segments, bool skipWhenFull)
    {
        if (segments.Length == 0 || !path.Matches(segments[^1]))
            return LoadResult.Missing;
        if (StaticPath.ResolveWithin(path.RealRoot, segments) is not { } file || FileStamp.Read(file) is not { } found)
            return LoadResult.Missing;
        // A file that cannot fit is not read at all (it could be larger than the memory).
        lock (_lock)
        {
            if (_disposed || path.Removed || CostOf(found.Length, key) > _maxTotalSize)
                return LoadResult.Missing;
        }
        if (!TryRead(file, out var content, out var stamp))
            return LoadResult.Missing;
        lock (_lock)
        {
            var cost = CostOf(content.LongLength, key);
            if (_disposed || path.Removed || cost > _maxTotalSize || (skipWhenFull && _totalSize + cost > _maxTotalSize))
                return LoadResult.Missing;
        }
        var source = new FileSource(path, key, segments, new StaticFile(file, stamp, MimeTypes.ForPath(key), _time.GetUtcNow()));
        var previous = t_loading;
        t_loading = new LoadContext(this, source);
        try
        {
            return path.Handler(this, key, content, path.Timeout) ? LoadResult.Loaded : LoadResult.Refused;
        }
        finally
        {
            t_loading = previous;
        }
    }

    /// <summary>
    /// The file a key names below an inserted directory that streams large files, when it is too large to be cached
    /// (over <see cref="MaxTotalSize"/>), with the directory's timeout; null otherwise. One stat; nothing is read.
    /// </summary>
    private (StaticFile File, TimeSpan Timeout)? FindLarge(string key)
    {
        CachedPath[] paths;
        long max;
        lock (_lock)
        {
            paths = _paths.ToArray();
            max = _maxTotalSize;
        }
        foreach (var path in paths)
        {
            if (!path.StreamsLarge || !path.TrySplit(key, out var segments) || !path.Matches(segments[^1]))
                continue;
            if (StaticPath.ResolveWithin(path.RealRoot, segments) is not { } file || FileStamp.Read(file) is not { } stamp)
                continue;
            if (CostOf(stamp.Length, key) > max)
                return (new StaticFile(file, stamp, MimeTypes.ForPath(key), _time.GetUtcNow()), path.Timeout);
        }
        return null;
    }

    // Reads a whole file and the stamp it has; a file that changes while being read is read once more.
    private static bool TryRead(string file, out byte[] content, out FileStamp stamp)
    {
        content = [];
        stamp = default;
        for (var attempt = 0; attempt < 2; attempt++)
        {
            if (FileStamp.Read(file) is not { } before)
                return false;
            try
            {
                content = File.ReadAllBytes(file);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                return false;
            }
            if (content.LongLength == before.Length && FileStamp.Read(file) == before)
            {
                stamp = before;
                return true;
            }
        }
        return false;
    }

    private enum LoadResult
    {
        Loaded,
        Missing,
        Refused,
    }

    /// <summary>An inserted directory. Keys and Removed are guarded by the cache's lock.</summary>
    private sealed class CachedPath(string path, string prefix, string realRoot, string filter, TimeSpan timeout, InsertHandler handler)
    {
        // "*.*" means every file, as it does for FileSystemWatcher and Directory.GetFiles.
        private readonly string _pattern = FileSystemName.TranslateWin32Expression(filter);

        /// <summary>The directory as given to InsertPath: the name FindPath and RemovePath use.</summary>
        public string Path { get; } = path;

        /// <summary>Keys start with this, then "/" (the prefix without its trailing slash: "" for "/").</summary>
        public string KeyPrefix { get; } = prefix.Replace('\\', '/').TrimEnd('/');

        /// <summary>The directory's real path (no symlink in it): what files must stay inside.</summary>
        public string RealRoot { get; } = realRoot;

        public TimeSpan Timeout { get; } = timeout;

        public InsertHandler Handler { get; } = handler;

        /// <summary>A file too large to cache is found as one to stream (HTTP static content).</summary>
        public bool StreamsLarge { get; init; }

        /// <summary>Keys of the entries read from this directory.</summary>
        public HashSet<string> Keys { get; } = new(StringComparer.Ordinal);

        public bool Removed { get; set; }

        public bool Matches(string name) => FileSystemName.MatchesWin32Expression(_pattern, name, ignoreCase: OperatingSystem.IsWindows());

        public string KeyFor(string[] segments) => KeyPrefix + "/" + string.Join('/', segments);

        /// <summary>The safe path segments below this directory that a key names; false when it names none.</summary>
        public bool TrySplit(string key, out string[] segments)
        {
            segments = [];
            if (key.Length <= KeyPrefix.Length + 1 || !key.StartsWith(KeyPrefix, StringComparison.Ordinal) || key[KeyPrefix.Length] != '/')
                return false;
            segments = key[(KeyPrefix.Length + 1)..].Split('/');
            foreach (var segment in segments)
            {
                if (!StaticPath.IsSafeSegment(segment))
                    return false;
            }
            return true;
        }
    }

    /// <summary>Where a file entry came from: to check it against the disk and to read it again.</summary>
    private sealed record FileSource(CachedPath Path, string Key, string[] Segments, StaticFile File);

    private sealed record LoadContext(FileCache Cache, FileSource Source);
}
