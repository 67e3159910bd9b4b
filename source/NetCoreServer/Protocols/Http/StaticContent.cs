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
            _ => Ranged(request, found.Content, file) ?? found.Content,
        };
    }

    /// <summary>
    /// A GET with one byte range (and an If-Range that still matches, if any): 206 with that part, or 416 when it starts
    /// past the end; null to serve the whole file. The prepared 200 ends with the file's bytes, so the part is cut from it.
    /// </summary>
    private static byte[]? Ranged(HttpRequest request, byte[] whole, StaticFile file)
    {
        if (request.Method != "GET")
            return null;
        var header = request.Store.JoinFields("range"u8);
        if (header == null)
            return null;
        var ifRange = request.Store.JoinFields("if-range"u8);
        if (ifRange != null && ifRange.Trim() != file.ETag && ifRange.Trim() != file.LastModifiedHttpDate)
            return null;
        var length = file.Length;
        switch (HttpRanges.Parse(header, length, out var first, out var last))
        {
            case RangeRequest.Satisfiable:
                var count = (int)(last - first + 1);
                var head = Encoding.ASCII.GetBytes(
                    $"HTTP/1.1 206 Partial Content\r\nContent-Type: {file.ContentType}\r\nContent-Range: bytes {first}-{last}/{length}\r\n" +
                    $"Content-Length: {count}\r\nETag: {file.ETag}\r\nLast-Modified: {file.LastModifiedHttpDate}\r\n\r\n");
                var part = new byte[head.Length + count];
                head.CopyTo(part, 0);
                whole.AsSpan((int)(whole.Length - length + first), count).CopyTo(part.AsSpan(head.Length));
                return part;
            case RangeRequest.Unsatisfiable:
                return Encoding.ASCII.GetBytes($"HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{length}\r\nContent-Length: 0\r\n\r\n");
            default:
                return null;
        }
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
