using System;
using System.Collections.Generic;
using System.Text;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// Strings that parsed messages repeat (methods, versions, common field names and values), so that reading them from
/// a parsed message returns a shared instance instead of decoding a new one. Matching is exact (case-sensitive):
/// a differently spelled name is decoded as received.
/// </summary>
internal static class HttpKnownStrings
{
    private static readonly string[] s_strings =
    [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
        "HTTP/1.0", "HTTP/1.1",
        "Host", "Connection", "Keep-Alive", "Content-Length", "Content-Type", "Content-Encoding", "Transfer-Encoding",
        "Accept", "Accept-Encoding", "Accept-Language", "Accept-Charset", "User-Agent", "Cookie", "Set-Cookie",
        "Cache-Control", "Pragma", "Date", "Server", "Upgrade", "Expect", "Origin", "Referer", "Authorization",
        "If-None-Match", "If-Modified-Since", "Last-Modified", "ETag", "Location", "Allow", "Vary", "Range",
        "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Accept", "Sec-WebSocket-Protocol",
        "Sec-WebSocket-Extensions",
        "close", "keep-alive", "chunked", "websocket", "Upgrade", "100-continue", "*/*", "gzip, deflate", "0",
        "text/plain", "text/html", "application/json", "text/plain; charset=UTF-8",
    ];

    // Indexed by length; each bucket holds the UTF-8 bytes and the string.
    private static readonly (byte[] Bytes, string Text)[][] s_byLength = Build();

    /// <summary>The shared string spelled by <paramref name="bytes"/>, or null.</summary>
    public static string? Find(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length >= s_byLength.Length)
            return null;
        foreach (var (known, text) in s_byLength[bytes.Length])
        {
            if (bytes.SequenceEqual(known))
                return text;
        }
        return null;
    }

    /// <summary>The shared string for <paramref name="bytes"/>, else a new one decoded as UTF-8.</summary>
    public static string Get(ReadOnlySpan<byte> bytes)
        => bytes.IsEmpty ? string.Empty : Find(bytes) ?? Encoding.UTF8.GetString(bytes);

    private static (byte[], string)[][] Build()
    {
        var longest = 0;
        foreach (var text in s_strings)
            longest = Math.Max(longest, text.Length);
        var buckets = new List<(byte[], string)>[longest + 1];
        foreach (var text in s_strings)
        {
            var bucket = buckets[text.Length] ??= new List<(byte[], string)>();
            if (!bucket.Exists(entry => entry.Item2 == text))
                bucket.Add((Encoding.ASCII.GetBytes(text), text));
        }
        var result = new (byte[], string)[longest + 1][];
        for (var i = 0; i < result.Length; i++)
            result[i] = buckets[i]?.ToArray() ?? [];
        return result;
    }
}
