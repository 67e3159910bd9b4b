using System;
using NetCoreServer.Protocols.Http;


namespace NetCoreServer;

public partial class FileCache
{
    /// <summary>
    /// Finds what is cached for an HTTP request target, for HttpSession and HttpsSession. The query and fragment
    /// are dropped; the exact path is tried first among entries (NetCoreServer's lookup, which never reads a file);
    /// then the path is percent-decoded once and checked (<see cref="StaticPath.TryParseUrlPath"/>) and looked up
    /// like <see cref="Find"/>, reading a changed or not yet cached file below an inserted directory.
    /// </summary>
    /// <param name="target">The request target ("/css/site.css?v=2").</param>
    /// <param name="content">The cached value and, for an entry read from a file, the file's validators.</param>
    /// <returns>Found; Streamed (a file too large to cache: its validators only); NotFound; or Refused when the path is malformed or tries to leave the served directories (answer 400 or 404).</returns>
    internal StaticLookup FindForRequest(string target, out CachedContent content)
    {
        ArgumentNullException.ThrowIfNull(target);
        content = default;
        var end = target.AsSpan().IndexOfAny('?', '#');
        var raw = end < 0 ? target : target[..end];
        var parsed = StaticPath.TryParseUrlPath(target, out var key);
        if (!_used)
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
        content = new CachedContent(entry.Value, entry.Source?.File);
        return StaticLookup.Found;
    }
}
