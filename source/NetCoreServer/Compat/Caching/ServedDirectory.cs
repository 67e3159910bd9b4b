using System;

namespace NetCoreServer.Compat.Caching;

/// <summary>
/// A directory given to InsertPath: its sandbox, and how its files are cached (the handler and timeout). Removed is
/// set once, before its entries are dropped, and read without a lock: a load that sees it refrains, and the store
/// checks it again as it inserts.
/// </summary>
internal sealed class ServedDirectory(string path, PathSandbox sandbox, TimeSpan timeout, FileCache.InsertHandler handler, bool streamsLarge)
{
    private volatile bool _removed;

    /// <summary>The directory as given to InsertPath: the name FindPath and RemovePath use.</summary>
    public string Path { get; } = path;

    /// <summary>Which keys name which files, never outside the directory.</summary>
    public PathSandbox Sandbox { get; } = sandbox;

    public TimeSpan Timeout { get; } = timeout;

    public FileCache.InsertHandler Handler { get; } = handler;

    /// <summary>A file too large to cache is found as one to stream (the HTTP servers' static content).</summary>
    public bool StreamsLarge { get; } = streamsLarge;

    /// <summary>Removed, replaced or cleared: nothing more is cached from it.</summary>
    public bool Removed => _removed;

    public void MarkRemoved() => _removed = true;
}
