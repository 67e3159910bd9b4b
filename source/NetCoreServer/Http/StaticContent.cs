using System;
using System.IO;

namespace NetCoreServer.Http;

/// <summary>The static content an HTTP or HTTPS server serves from its <see cref="FileCache"/>: prepared responses by URL path.</summary>
internal static class StaticContent
{
    /// <summary>NetCoreServer's default lifetime of a cached file.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromHours(1);

    private static readonly char[] s_queryOrFragment = { '?', '#' };

    /// <summary>Caches a prepared 200 response (content type by extension, max-age) for each file under <paramref name="path"/>.</summary>
    public static void Add(FileCache cache, string path, string prefix, string filter, TimeSpan? timeout)
        => cache.InsertPath(path, prefix, filter, timeout ?? DefaultTimeout, Prepare);

    /// <summary>The prepared response for <paramref name="url"/> (its query ignored), or null.</summary>
    public static byte[]? Find(FileCache cache, string url)
    {
        var end = url.IndexOfAny(s_queryOrFragment);
        var (found, content) = cache.Find(end < 0 ? url : url[..end]);
        return found ? content : null;
    }

    private static bool Prepare(FileCache cache, string key, byte[] value, TimeSpan timeout)
    {
        var response = new HttpResponse();
        response.SetBegin(200)
            .SetContentType(Path.GetExtension(key))
            .SetHeader("Cache-Control", $"max-age={(long)timeout.TotalSeconds}")
            .SetBody(value);
        return cache.Add(key, response.Cache.AsSpan().ToArray(), timeout);
    }
}
