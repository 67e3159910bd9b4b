using System;
using System.Globalization;

namespace NetCoreServer.Protocols.Http;

/// <summary>What a Range header asks of a representation (RFC 9110 14.2).</summary>
internal enum RangeRequest
{
    /// <summary>No usable range: serve the whole representation (no header, another unit, several ranges, bad syntax).</summary>
    Whole,

    /// <summary>One range within the representation: 206.</summary>
    Satisfiable,

    /// <summary>A single range that starts past the end (or a zero suffix): 416.</summary>
    Unsatisfiable,
}

/// <summary>
/// The one byte range a static file is served by: <c>bytes=first-last</c>, <c>bytes=first-</c> or <c>bytes=-suffix</c>.
/// Several ranges in one request are served as the whole file, which RFC 9110 allows (a server may ignore Range).
/// </summary>
internal static class HttpRanges
{
    /// <summary>Reads <paramref name="header"/> against a representation of <paramref name="length"/> bytes; on Satisfiable, [<paramref name="first"/>, <paramref name="last"/>] inclusive.</summary>
    public static RangeRequest Parse(string? header, long length, out long first, out long last)
    {
        first = 0;
        last = 0;
        if (header == null)
            return RangeRequest.Whole;
        var text = header.AsSpan().Trim();
        if (!text.StartsWith("bytes=", StringComparison.OrdinalIgnoreCase))
            return RangeRequest.Whole;
        var spec = text[6..].Trim();
        if (spec.Contains(','))
            return RangeRequest.Whole;
        var dash = spec.IndexOf('-');
        if (dash < 0)
            return RangeRequest.Whole;
        var left = spec[..dash].Trim();
        var right = spec[(dash + 1)..].Trim();
        if (left.IsEmpty)
        {
            // A suffix: the last N bytes.
            if (!TryDigits(right, out var suffix))
                return RangeRequest.Whole;
            if (suffix == 0 || length == 0)
                return RangeRequest.Unsatisfiable;
            first = Math.Max(0, length - suffix);
            last = length - 1;
            return RangeRequest.Satisfiable;
        }
        if (!TryDigits(left, out first))
            return RangeRequest.Whole;
        if (right.IsEmpty)
            last = long.MaxValue;
        else if (!TryDigits(right, out last) || last < first)
            return RangeRequest.Whole;
        if (first >= length)
            return RangeRequest.Unsatisfiable;
        last = Math.Min(last, length - 1);
        return RangeRequest.Satisfiable;
    }

    private static bool TryDigits(ReadOnlySpan<char> digits, out long value)
    {
        value = 0;
        foreach (var c in digits)
        {
            if (c is < '0' or > '9')
                return false;
        }
        return !digits.IsEmpty && long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out value);
    }
}
