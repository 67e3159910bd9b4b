using System;
using System.Globalization;
using System.Security.Cryptography;

namespace NetCoreServer.Protocols.Http;

/// <summary>What a conditional GET or HEAD should answer (RFC 9110 13.2.2).</summary>
internal enum ConditionalResult
{
    /// <summary>The conditions pass (or there are none): send the representation (200).</summary>
    Proceed,

    /// <summary>The client's copy is current: answer 304 Not Modified with the validators and no body.</summary>
    NotModified,

    /// <summary>If-None-Match matched on a method other than GET or HEAD: answer 412 Precondition Failed.</summary>
    PreconditionFailed,
}

/// <summary>
/// Validators for static content and the conditional request rules that use them (RFC 9110 8.8, 13): entity tags,
/// Last-Modified dates in IMF-fixdate, If-None-Match and If-Modified-Since. Plain strings and dates in, plain
/// strings and decisions out; no HTTP message types. Thread-safe (stateless).
/// </summary>
internal static class HttpValidators
{
    // IMF-fixdate first (what everyone sends), then the two obsolete forms a recipient must accept (RFC 9110 5.6.7).
    private static readonly string[] s_dateFormats =
    [
        "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'",
        "dddd, dd-MMM-yy HH':'mm':'ss 'GMT'",
        "ddd MMM d HH':'mm':'ss yyyy",
        "ddd MMM dd HH':'mm':'ss yyyy",
    ];

    /// <summary>
    /// A strong entity tag from a file's length and last write time, both in hex: "\"1dc0c5f8a3b2e40-1a2b\"". Cheap
    /// (no read of the content); it changes whenever a write updates the modification time, which is the same
    /// assumption nginx and Apache make for their default ETag.
    /// </summary>
    /// <param name="length">Length of the content in bytes.</param>
    /// <param name="lastWriteUtc">Last write time of the file.</param>
    /// <returns>The quoted entity tag.</returns>
    public static string ETagFor(long length, DateTimeOffset lastWriteUtc)
        => string.Create(CultureInfo.InvariantCulture, $"\"{lastWriteUtc.UtcTicks:x}-{length:x}\"");

    /// <summary>A strong entity tag from the content itself: the first 128 bits of its SHA-256, base64url, quoted.</summary>
    /// <param name="content">The representation's bytes.</param>
    /// <returns>The quoted entity tag.</returns>
    public static string ETagFor(ReadOnlySpan<byte> content)
    {
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(content, hash);
        return "\"" + Convert.ToBase64String(hash[..16]).TrimEnd('=').Replace('+', '-').Replace('/', '_') + "\"";
    }

    /// <summary>
    /// The Last-Modified value for a file written at <paramref name="lastWriteUtc"/>: whole seconds (what an HTTP
    /// date can carry), and never later than <paramref name="now"/> (RFC 9110 8.8.2.1: a date in the future is
    /// replaced by the time of the response).
    /// </summary>
    /// <param name="lastWriteUtc">Last write time of the file.</param>
    /// <param name="now">The current time.</param>
    /// <returns>The modification date to send and compare against.</returns>
    public static DateTimeOffset LastModifiedFor(DateTimeOffset lastWriteUtc, DateTimeOffset now)
    {
        var date = lastWriteUtc > now ? now : lastWriteUtc;
        var utc = date.ToUniversalTime();
        return new DateTimeOffset(utc.UtcTicks - utc.UtcTicks % TimeSpan.TicksPerSecond, TimeSpan.Zero);
    }

    /// <summary>An HTTP date in IMF-fixdate (RFC 9110 5.6.7): "Sun, 06 Nov 1994 08:49:37 GMT".</summary>
    /// <param name="date">Any date; converted to UTC.</param>
    /// <returns>The formatted date.</returns>
    public static string FormatHttpDate(DateTimeOffset date)
        => date.ToUniversalTime().ToString("r", CultureInfo.InvariantCulture);

    /// <summary>Parses an HTTP date in IMF-fixdate or either obsolete form (RFC 850, asctime).</summary>
    /// <param name="value">The field value.</param>
    /// <param name="date">The date, in UTC.</param>
    /// <returns>False when the value is not an HTTP date.</returns>
    public static bool TryParseHttpDate(ReadOnlySpan<char> value, out DateTimeOffset date)
        => DateTimeOffset.TryParseExact(value.Trim(), s_dateFormats, CultureInfo.InvariantCulture,
            DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal | DateTimeStyles.AllowInnerWhite, out date);

    /// <summary>
    /// True when an If-None-Match value matches <paramref name="etag"/> by the weak comparison (RFC 9110 8.8.3.2:
    /// W/ is ignored) or is "*". A list is accepted ("\"a\", W/\"b\""); so is a value without quotes that some
    /// clients send. Several If-None-Match lines are one list joined with ", ".
    /// </summary>
    /// <param name="ifNoneMatch">The field value.</param>
    /// <param name="etag">The current entity tag, quoted, with or without W/.</param>
    /// <returns>True when the client already holds this representation.</returns>
    public static bool IfNoneMatchMatches(ReadOnlySpan<char> ifNoneMatch, ReadOnlySpan<char> etag)
    {
        var current = OpaqueTag(etag);
        var rest = ifNoneMatch.Trim();
        if (rest.SequenceEqual("*"))
            return true;
        while (!rest.IsEmpty)
        {
            rest = rest.TrimStart(" \t,");
            if (rest.IsEmpty)
                break;
            if (rest.StartsWith("W/", StringComparison.Ordinal))
                rest = rest[2..];
            ReadOnlySpan<char> tag;
            if (rest.StartsWith('"'))
            {
                // A quoted tag may contain commas; it ends at the next quote.
                var close = rest[1..].IndexOf('"');
                if (close < 0)
                    return false;
                tag = rest[..(close + 2)];
                rest = rest[(close + 2)..];
            }
            else
            {
                var comma = rest.IndexOf(',');
                tag = (comma < 0 ? rest : rest[..comma]).Trim();
                rest = comma < 0 ? default : rest[comma..];
            }
            if (OpaqueTag(tag).SequenceEqual(current))
                return true;
        }
        return false;
    }

    /// <summary>
    /// Evaluates If-None-Match and If-Modified-Since for a representation (RFC 9110 13.2.2, steps 3 and 4):
    /// If-None-Match decides when present; otherwise If-Modified-Since, only for GET and HEAD, and only when it is
    /// one valid HTTP date not later than <paramref name="now"/> (anything else is ignored, as 13.1.3 requires).
    /// </summary>
    /// <param name="method">The request method ("GET", "HEAD", …).</param>
    /// <param name="ifNoneMatch">The If-None-Match value (several lines joined with ", "), or null.</param>
    /// <param name="ifModifiedSince">The If-Modified-Since value, or null.</param>
    /// <param name="etag">The representation's entity tag.</param>
    /// <param name="lastModified">The representation's Last-Modified date (<see cref="LastModifiedFor"/>).</param>
    /// <param name="now">The current time.</param>
    /// <returns>Whether to send the representation, 304 or 412.</returns>
    public static ConditionalResult Evaluate(string method, string? ifNoneMatch, string? ifModifiedSince, string etag, DateTimeOffset lastModified, DateTimeOffset now)
    {
        var safe = method is "GET" or "HEAD";
        if (ifNoneMatch != null && !ifNoneMatch.AsSpan().Trim().IsEmpty)
        {
            if (!IfNoneMatchMatches(ifNoneMatch, etag))
                return ConditionalResult.Proceed;
            return safe ? ConditionalResult.NotModified : ConditionalResult.PreconditionFailed;
        }
        if (!safe || ifModifiedSince == null || !TryParseHttpDate(ifModifiedSince, out var since) || since > now)
            return ConditionalResult.Proceed;
        return lastModified <= since ? ConditionalResult.NotModified : ConditionalResult.Proceed;
    }

    // The tag without W/ and without its quotes, for the weak comparison.
    private static ReadOnlySpan<char> OpaqueTag(ReadOnlySpan<char> tag)
    {
        tag = tag.Trim();
        if (tag.StartsWith("W/", StringComparison.Ordinal))
            tag = tag[2..];
        if (tag.Length >= 2 && tag[0] == '"' && tag[^1] == '"')
            tag = tag[1..^1];
        return tag;
    }
}
