using System;
using System.Net;

// twin: NetCoreServer.HttpServer NetCoreServer.HttpsServer
    /// <summary>The static content: prepared responses by URL path, refreshed when the files change.</summary>
    public FileCache Cache { get; } = new();

    /// <summary>Limits and timeouts of this server's sessions.</summary>
    public HttpOptions Http { get; } = new();

    /// <summary>Serves the files under <paramref name="path"/> at URLs under <paramref name="prefix"/>.</summary>
    /// <param name="path">Directory of the files.</param>
    /// <param name="prefix">URL path they are served under (default "/").</param>
    /// <param name="filter">File name filter (default all files).</param>
    /// <param name="timeout">How long an entry lives before it is read again (default 1 hour).</param>
    public void AddStaticContent(string path, string prefix = "/", string filter = "*.*", TimeSpan? timeout = null)
        => NetCoreServer.Http.StaticContent.Add(Cache, path, prefix, filter, timeout);

    /// <summary>Stops serving the files under <paramref name="path"/>.</summary>
    /// <param name="path">Directory given to <see cref="AddStaticContent"/>.</param>
    public void RemoveStaticContent(string path) => Cache.RemovePath(path);

    /// <summary>Stops serving all static content.</summary>
    public void ClearStaticContent() => Cache.Clear();
