using System;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// What an HTTP server serves and how, whatever the transport: its static content and its sessions' limits.
/// <see cref="HttpServer"/> and <see cref="HttpsServer"/> forward their public members here. Thread-safe as
/// <see cref="FileCache"/> is.
/// </summary>
internal sealed class HttpSite
{
    public FileCache Cache { get; } = new();

    public HttpOptions Options { get; } = new();

    public void AddStaticContent(string path, string prefix, string filter, TimeSpan? timeout) => StaticContent.Add(Cache, path, prefix, filter, timeout);

    public void RemoveStaticContent(string path) => Cache.RemovePath(path);

    public void ClearStaticContent() => Cache.Clear();
}
