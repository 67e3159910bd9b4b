using System;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// HPACK's static table (RFC 7541 Appendix A): 61 fields at indexes 1 to 61, before the dynamic table's. Lookups for the
/// encoder go by name length first, so a name is compared only with the few static names of its length.
/// </summary>
internal static class HpackStaticTable
{
    /// <summary>How many entries the static table has; dynamic indexes start after it.</summary>
    public const int Count = 61;

    private static readonly byte[][] s_names = new byte[Count + 1][];
    private static readonly byte[][] s_values = new byte[Count + 1][];
    // For each name length, the indexes of the first entry of every distinct static name of that length.
    private static readonly int[][] s_byNameLength;

    static HpackStaticTable()
    {
        string[] fields =
        [
            ":authority", "",
            ":method", "GET",
            ":method", "POST",
            ":path", "/",
            ":path", "/index.html",
            ":scheme", "http",
            ":scheme", "https",
            ":status", "200",
            ":status", "204",
            ":status", "206",
            ":status", "304",
            ":status", "400",
            ":status", "404",
            ":status", "500",
            "accept-charset", "",
            "accept-encoding", "gzip, deflate",
            "accept-language", "",
            "accept-ranges", "",
            "accept", "",
            "access-control-allow-origin", "",
            "age", "",
            "allow", "",
            "authorization", "",
            "cache-control", "",
            "content-disposition", "",
            "content-encoding", "",
            "content-language", "",
            "content-length", "",
            "content-location", "",
            "content-range", "",
            "content-type", "",
            "cookie", "",
            "date", "",
            "etag", "",
            "expect", "",
            "expires", "",
            "from", "",
            "host", "",
            "if-match", "",
            "if-modified-since", "",
            "if-none-match", "",
            "if-range", "",
            "if-unmodified-since", "",
            "last-modified", "",
            "link", "",
            "location", "",
            "max-forwards", "",
            "proxy-authenticate", "",
            "proxy-authorization", "",
            "range", "",
            "referer", "",
            "refresh", "",
            "retry-after", "",
            "server", "",
            "set-cookie", "",
            "strict-transport-security", "",
            "transfer-encoding", "",
            "user-agent", "",
            "vary", "",
            "via", "",
            "www-authenticate", "",
        ];
        var longest = 0;
        for (var i = 1; i <= Count; i++)
        {
            s_names[i] = System.Text.Encoding.ASCII.GetBytes(fields[2 * i - 2]);
            s_values[i] = System.Text.Encoding.ASCII.GetBytes(fields[2 * i - 1]);
            longest = Math.Max(longest, s_names[i].Length);
        }
        var counts = new int[longest + 1];
        for (var i = 1; i <= Count; i++)
        {
            if (!IsRepeatedName(i))
                counts[s_names[i].Length]++;
        }
        s_byNameLength = new int[longest + 1][];
        for (var length = 0; length <= longest; length++)
            s_byNameLength[length] = new int[counts[length]];
        Array.Clear(counts);
        for (var i = 1; i <= Count; i++)
        {
            if (!IsRepeatedName(i))
                s_byNameLength[s_names[i].Length][counts[s_names[i].Length]++] = i;
        }
    }

    /// <summary>The name of entry <paramref name="index"/> (1 to <see cref="Count"/>).</summary>
    public static ReadOnlySpan<byte> Name(int index) => s_names[index];

    /// <summary>The value of entry <paramref name="index"/> (1 to <see cref="Count"/>); empty for most.</summary>
    public static ReadOnlySpan<byte> Value(int index) => s_values[index];

    /// <summary>
    /// Finds a field: the index of an entry with this name and value, or else of the first entry with this name
    /// (<paramref name="valueMatches"/> then false), or 0 when no static entry has the name.
    /// </summary>
    public static int Find(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, out bool valueMatches)
    {
        valueMatches = false;
        if (name.Length >= s_byNameLength.Length)
            return 0;
        foreach (var first in s_byNameLength[name.Length])
        {
            if (!name.SequenceEqual(s_names[first]))
                continue;
            // Entries with the same name are consecutive (:method, :path, :scheme, :status).
            for (var i = first; i <= Count && name.SequenceEqual(s_names[i]); i++)
            {
                if (value.SequenceEqual(s_values[i]))
                {
                    valueMatches = true;
                    return i;
                }
            }
            return first;
        }
        return 0;
    }

    private static bool IsRepeatedName(int index) => index > 1 && s_names[index].AsSpan().SequenceEqual(s_names[index - 1]);
}
