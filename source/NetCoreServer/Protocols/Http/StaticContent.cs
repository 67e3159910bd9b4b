using System;
using System.IO;
using System.Text;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The static content an HTTP or HTTPS server serves from its <see cref="FileCache"/>: a prepared 200 response per file
/// (content type by extension, ETag, Last-Modified, max-age), answered 304 when the client's copy is current, and a
/// path that tries to leave the served directory refused. A file too large for the cache's budget is sent from the
/// disk in pieces instead (<see cref="StaticStream"/>), with the same headers, validators and ranges.
/// </summary>
internal static class StaticContent
{
    /// <summary>NetCoreServer's default lifetime of a cached file.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromHours(1);

    /// <summary>Caches a prepared response for each file under <paramref name="path"/>, served under <paramref name="prefix"/>.</summary>
    public static void Add(FileCache cache, string path, string prefix, string filter, TimeSpan? timeout)
        => cache.InsertStaticPath(path, prefix, filter, timeout ?? DefaultTimeout, Prepare, streamsLarge: true);

    /// <summary>
    /// What to send for a GET or HEAD of <paramref name="request"/>'s URL, or null when it is not static content or is
    /// a file too large to cache: then <paramref name="streamed"/> says what part of it to send from the disk.
    /// </summary>
    public static byte[]? Answer(FileCache cache, HttpRequest request, out StaticStream? streamed)
    {
        streamed = null;
        var lookup = cache.FindForRequest(request.Url, out var found);
        switch (lookup)
        {
            case StaticLookup.Found or StaticLookup.Streamed:
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
        switch (result)
        {
            case ConditionalResult.NotModified:
                return NotModified(file);
            case ConditionalResult.PreconditionFailed:
                return Status(412, "");
        }
        if (lookup == StaticLookup.Found)
            return Ranged(request, found.Content, file) ?? found.Content;
        return StreamedPart(request, file, found.Timeout, out streamed);
    }

    /// <summary>The 200 or 206 head of a file sent from the disk and the part to send; or a 416 to send as it is.</summary>
    private static byte[]? StreamedPart(HttpRequest request, StaticFile file, TimeSpan timeout, out StaticStream? streamed)
    {
        streamed = null;
        var length = file.Length;
        var range = RangeFor(request, file, out var first, out var last);
        if (range == RangeRequest.Unsatisfiable)
            return Unsatisfiable(length);
        var head = new HttpResponse();
        head.SetBegin(range == RangeRequest.Satisfiable ? 206 : 200).SetHeader("Content-Type", file.ContentType);
        if (range == RangeRequest.Satisfiable)
            head.SetHeader("Content-Range", $"bytes {first}-{last}/{length}");
        else
            (first, last) = (0, length - 1);
        head.SetHeader("ETag", file.ETag).SetHeader("Last-Modified", file.LastModifiedHttpDate)
            .SetHeader("Cache-Control", $"max-age={(long)timeout.TotalSeconds}");
        streamed = new StaticStream(file, head, first, last - first + 1);
        return null;
    }

    /// <summary>The byte range a GET asks for (with an If-Range that still matches, if any); Whole for the whole file.</summary>
    private static RangeRequest RangeFor(HttpRequest request, StaticFile file, out long first, out long last)
    {
        first = 0;
        last = 0;
        if (request.Method != "GET")
            return RangeRequest.Whole;
        var header = request.Store.JoinFields("range"u8);
        if (header == null)
            return RangeRequest.Whole;
        var ifRange = request.Store.JoinFields("if-range"u8);
        if (ifRange != null && ifRange.Trim() != file.ETag && ifRange.Trim() != file.LastModifiedHttpDate)
            return RangeRequest.Whole;
        return HttpRanges.Parse(header, file.Length, out first, out last);
    }

    /// <summary>
    /// A GET with one byte range (and an If-Range that still matches, if any): 206 with that part, or 416 when it starts
    /// past the end; null to serve the whole file. The prepared 200 ends with the file's bytes, so the part is cut from it.
    /// </summary>
    private static byte[]? Ranged(HttpRequest request, byte[] whole, StaticFile file)
    {
        var length = file.Length;
        switch (RangeFor(request, file, out var first, out var last))
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
                return Unsatisfiable(length);
            default:
                return null;
        }
    }

    private static byte[] Unsatisfiable(long length)
        => Encoding.ASCII.GetBytes($"HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{length}\r\nContent-Length: 0\r\n\r\n");

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

/// <summary>The part of a file too large to cache that a request gets, sent from the disk as it is read.</summary>
/// <param name="File">The file, as it was when looked up.</param>
/// <param name="Head">The response's start line and headers (200 or 206); the framing adds Content-Length.</param>
/// <param name="Offset">The first byte to send.</param>
/// <param name="Length">How many bytes to send.</param>
internal sealed record StaticStream(StaticFile File, HttpResponse Head, long Offset, long Length)
{
    /// <summary>Opens the file for asynchronous reading at <see cref="Offset"/>; null when it cannot be opened (gone, no access).</summary>
    public FileStream? Open()
    {
        FileStream? file = null;
        try
        {
            file = new FileStream(File.FullPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0, FileOptions.Asynchronous | FileOptions.SequentialScan);
            file.Position = Offset;
            return file;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            file?.Dispose();
            return null;
        }
    }
}
