using System;
using System.IO;
using System.Text;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The static content an HTTP or HTTPS server serves from its <see cref="FileCache"/>: a prepared 200 response per file
/// (content type by extension, ETag, Last-Modified, max-age), answered 304 when the client's copy is current, and a
/// path that tries to leave the served directory refused.
/// </summary>
internal static class StaticContent
{
    /// <summary>NetCoreServer's default lifetime of a cached file.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromHours(1);

    /// <summary>Caches a prepared response for each file under <paramref name="path"/>, served under <paramref name="prefix"/>.</summary>
    public static void Add(FileCache cache, string path, string prefix, string filter, TimeSpan? timeout)
        => cache.InsertPath(path, prefix, filter, timeout ?? DefaultTimeout, Prepare);

    /// <summary>What to send for a GET or HEAD of <paramref name="request"/>'s URL, or null when it is not static content.</summary>
    public static byte[]? Answer(FileCache cache, HttpRequest request)
    {
        switch (cache.FindForRequest(request.Url, out var found))
        {
            case StaticLookup.Found:
                break;
            case StaticLookup.Refused:
                return Status(400, "The path is not allowed.");
            default:
                return null;
        }
        var file = found.File;
        if (file == null)
            return found.Content;
        var result = HttpValidators.Evaluate(request.Method, request.Store.JoinFields("if-none-match"u8), request.Store.JoinFields("if-modified-since"u8), file.ETag, file.LastModified, DateTimeOffset.UtcNow);
        return result switch
        {
            ConditionalResult.NotModified => NotModified(file),
            ConditionalResult.PreconditionFailed => Status(412, ""),
            _ => found.Content,
        };
    }

    private static bool Prepare(FileCache cache, string key, byte[] value, TimeSpan timeout)
    {
        var response = new HttpResponse();
        response.SetBegin(200);
        var file = FileCache.LoadingFile;
        if (file != null)
        {
            response.SetHeader("Content-Type", file.ContentType)
                .SetHeader("ETag", file.ETag)
                .SetHeader("Last-Modified", file.LastModifiedHttpDate);
        }
        else
        {
            response.SetContentType(Path.GetExtension(key));
        }
        response.SetHeader("Cache-Control", $"max-age={(long)timeout.TotalSeconds}").SetBody(value);
        return cache.Add(key, response.Cache.AsSpan().ToArray(), timeout);
    }

    // A 304 carries the validators and no body; a Content-Length there would have to be the 200's (RFC 9110 15.4.5), so none is sent.
    private static byte[] NotModified(StaticFile file)
        => Encoding.ASCII.GetBytes($"HTTP/1.1 304 Not Modified\r\nETag: {file.ETag}\r\nLast-Modified: {file.LastModifiedHttpDate}\r\n\r\n");

    private static byte[] Status(int status, string reason)
    {
        var response = new HttpResponse();
        response.MakeErrorResponse(status, reason);
        return response.Cache.AsSpan().ToArray();
    }
}
