using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Compat.Caching;

/// <summary>
/// The file part of <see cref="FileCache"/>: the served directories, reading their files into the
/// <see cref="CacheStore"/> through each directory's handler (at insert, on a first lookup, and again when a file
/// changed), and the HTTP lookup of a request target. Which file a key names is the directories'
/// <see cref="PathSandbox"/>'s to say. Handlers run on the calling thread under no lock.
/// </summary>
internal sealed class StaticFiles
{
    // The file being read on this thread while its handler runs: an add from the handler is tied to it.
    [ThreadStatic]
    private static Loading? t_loading;

    private readonly FileCache _cache;
    private readonly CacheStore _store;

    // Guards changes to the list; readers take the array as it is (replaced, never changed), without the lock.
    private readonly Lock _lock = new();
    private ServedDirectory[] _directories = [];
    private bool _disposed;

    public StaticFiles(FileCache cache, CacheStore store)
    {
        _cache = cache;
        _store = store;
    }

    private enum LoadResult
    {
        Loaded,
        Missing,
        Refused,
    }

    /// <summary>The file whose handler runs on this thread (of any cache); null outside a handler.</summary>
    public static StaticFile? LoadingFile => t_loading?.Origin.File;

    /// <summary>The file this cache is reading on this thread while its handler runs (an add then comes from it); null otherwise.</summary>
    public FileOrigin? LoadingOrigin => t_loading is { } loading && loading.Files == this ? loading.Origin : null;

    /// <summary>
    /// Serves the files below <paramref name="path"/> (replacing an earlier insert of the same path) and reads the ones
    /// that fit now. False when the directory does not exist, the cache is disposed, or a handler returned false.
    /// </summary>
    public bool Insert(string path, string prefix, string filter, TimeSpan timeout, FileCache.InsertHandler handler, bool streamsLarge)
    {
        Remove(path);
        if (PathSandbox.Create(path, prefix, filter) is not { } sandbox)
            return false;
        var directory = new ServedDirectory(path, sandbox, timeout, handler, streamsLarge);
        lock (_lock)
        {
            if (_disposed)
                return false;
            _store.MarkUsed();
            _directories = [.. _directories, directory];
        }
        return LoadTree(directory);
    }

    /// <summary>True when <paramref name="path"/> (as given to Insert) is served.</summary>
    public bool Contains(string path) => Array.Exists(Volatile.Read(ref _directories), d => d.Path == path);

    /// <summary>Stops serving <paramref name="path"/> and drops every entry read from it.</summary>
    /// <returns>True when it was served.</returns>
    public bool Remove(string path)
    {
        ServedDirectory removed;
        lock (_lock)
        {
            var index = Array.FindIndex(_directories, d => d.Path == path);
            if (index < 0)
                return false;
            removed = _directories[index];
            _directories = [.. _directories[..index], .. _directories[(index + 1)..]];
            // Marked before its entries go: a load of it that is under way can no longer add one.
            removed.MarkRemoved();
        }
        _store.RemoveFrom(removed);
        return true;
    }

    /// <summary>Stops serving every directory; with <paramref name="dispose"/>, later inserts are refused.</summary>
    public void Clear(bool dispose)
    {
        lock (_lock)
        {
            foreach (var directory in _directories)
                directory.MarkRemoved();
            _directories = [];
            _disposed |= dispose;
        }
    }

    /// <summary>
    /// The live entry under <paramref name="key"/>, checked against its file: read again when the file changed,
    /// dropped when it is gone; with <paramref name="loadMissing"/>, a missing key below a served directory is read
    /// from its file.
    /// </summary>
    public CacheEntry? Lookup(string key, bool loadMissing)
    {
        var entry = _store.Get(key);
        if (entry == null)
            return loadMissing && LoadKey(key) ? _store.Get(key) : null;
        if (entry.Origin is not { } origin || origin.File.IsCurrent())
            return entry;
        _store.RemoveIfCurrent(entry);
        return Load(origin.Directory, origin.Key, origin.Segments, skipWhenFull: false) == LoadResult.Loaded ? _store.Get(key) : null;
    }

    /// <summary>
    /// What is cached for an HTTP request target. The query and fragment are dropped; the exact path is tried first
    /// among entries (NetCoreServer's lookup, which never reads a file); then the path is percent-decoded once and
    /// checked (<see cref="StaticPath.TryParseUrlPath"/>) and looked up like a key, reading a changed or not yet cached
    /// file below a served directory.
    /// </summary>
    public StaticLookup FindForRequest(string target, out CachedContent content)
    {
        content = default;
        var end = target.AsSpan().IndexOfAny('?', '#');
        var raw = end < 0 ? target : target[..end];
        var parsed = StaticPath.TryParseUrlPath(target, out var key);
        if (!_store.Used)
            return parsed ? StaticLookup.NotFound : StaticLookup.Refused;
        var entry = !parsed || key != raw ? Lookup(raw, loadMissing: false) : null;
        if (entry == null && parsed)
            entry = Lookup(key, loadMissing: true);
        if (entry == null && parsed && FindLarge(key) is { } large)
        {
            content = new CachedContent([], large.File, large.Timeout);
            return StaticLookup.Streamed;
        }
        if (entry == null)
            return parsed ? StaticLookup.NotFound : StaticLookup.Refused;
        content = new CachedContent(entry.Value, entry.Origin?.File);
        return StaticLookup.Found;
    }

    // Reads the file a key names below the first served directory that has it.
    private bool LoadKey(string key)
    {
        foreach (var directory in Volatile.Read(ref _directories))
        {
            if (directory.Sandbox.TrySplit(key, out var segments) && Load(directory, key, segments, skipWhenFull: false) == LoadResult.Loaded)
                return true;
        }
        return false;
    }

    // Walks the served directory (real directories only, PathSandbox.MaxListDepth deep) and reads every file that
    // matches the filter and fits beside what is cached.
    private bool LoadTree(ServedDirectory served)
    {
        var pending = new Stack<string[]>();
        pending.Push([]);
        while (pending.TryPop(out var directory))
        {
            if (served.Removed)
                return false;
            foreach (var (name, isDirectory) in served.Sandbox.List(directory))
            {
                string[] segments = [.. directory, name];
                if (isDirectory)
                {
                    if (segments.Length < PathSandbox.MaxListDepth)
                        pending.Push(segments);
                    continue;
                }
                if (Load(served, served.Sandbox.KeyFor(segments), segments, skipWhenFull: true) == LoadResult.Refused)
                    return false;
            }
        }
        return true;
    }

    // Reads one file below a served directory and hands it to the directory's handler, outside any lock.
    private LoadResult Load(ServedDirectory served, string key, string[] segments, bool skipWhenFull)
    {
        if (served.Sandbox.Resolve(segments) is not { } found)
            return LoadResult.Missing;
        // A file that cannot fit is not read at all (it could be larger than the memory).
        if (served.Removed || !_store.CouldTake(found.Stamp.Length, key, withoutEvicting: false))
            return LoadResult.Missing;
        if (!TryRead(found.Path, out var content, out var stamp))
            return LoadResult.Missing;
        if (served.Removed || !_store.CouldTake(content.LongLength, key, skipWhenFull))
            return LoadResult.Missing;
        var origin = new FileOrigin(served, key, segments, new StaticFile(found.Path, stamp, MimeTypes.ForPath(key), _store.Time.GetUtcNow()));
        var previous = t_loading;
        t_loading = new Loading(this, origin);
        try
        {
            return served.Handler(_cache, key, content, served.Timeout) ? LoadResult.Loaded : LoadResult.Refused;
        }
        finally
        {
            t_loading = previous;
        }
    }

    /// <summary>
    /// The file a key names below a served directory that streams large files, when it is too large to be cached,
    /// with the directory's timeout; null otherwise. One stat; nothing is read.
    /// </summary>
    private (StaticFile File, TimeSpan Timeout)? FindLarge(string key)
    {
        var max = _store.MaxTotalSize;
        foreach (var served in Volatile.Read(ref _directories))
        {
            if (!served.StreamsLarge || !served.Sandbox.TrySplit(key, out var segments) || served.Sandbox.Resolve(segments) is not { } found)
                continue;
            if (CacheStore.CostOf(found.Stamp.Length, key) > max)
                return (new StaticFile(found.Path, found.Stamp, MimeTypes.ForPath(key), _store.Time.GetUtcNow()), served.Timeout);
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

    private sealed record Loading(StaticFiles Files, FileOrigin Origin);
}
