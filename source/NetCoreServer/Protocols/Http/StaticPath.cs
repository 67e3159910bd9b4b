using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// Maps a request path to a file under a served directory, refusing every way out of it: dot segments, their
/// percent-encoded forms (%2e%2e), encoded separators (%2f, %5c), backslashes, NUL and control characters, rooted
/// segments (C:), and symlinks whose target leaves the directory. Stateless and thread-safe.
/// <para>
/// Decoding happens once: "%252e%252e" is the literal name "%2e%2e", never "..". Symlinks are resolved one path
/// component at a time from the served directory, so ".." inside a link target is applied to the real directory
/// the link sits in (as the kernel does), not to the text of the path. The check and the later open are two steps:
/// someone who can write into the served directory can still swap a file for a link in between.
/// </para>
/// </summary>
internal static class StaticPath
{
    // Linux's own limit on symlinks followed in one lookup (MAXSYMLINKS).
    private const int MaxLinkHops = 40;

    private static readonly UTF8Encoding s_strictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private static StringComparison PathComparison
        => OperatingSystem.IsWindows() || OperatingSystem.IsMacOS() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;

    /// <summary>
    /// Splits the path of a request target ("/a/b%20c.txt?x=1", or the absolute form "http://host/a") into decoded
    /// segments and the cache key they name ("/a/b c.txt"). The query and fragment are dropped; a trailing slash
    /// stays in the key (a directory, never a cached file).
    /// </summary>
    /// <param name="target">The request target as received.</param>
    /// <param name="key">The decoded path, "/" followed by the segments joined with "/".</param>
    /// <returns>False when the path is malformed or could leave the served directory.</returns>
    public static bool TryParseUrlPath(string target, out string key)
    {
        key = "";
        var path = target.AsSpan();
        var end = path.IndexOfAny('?', '#');
        if (end >= 0)
            path = path[..end];
        if (path.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || path.StartsWith("https://", StringComparison.OrdinalIgnoreCase))
        {
            var authority = path[(path.IndexOf("//", StringComparison.Ordinal) + 2)..];
            var slash = authority.IndexOf('/');
            path = slash < 0 ? "/" : authority[slash..];
        }
        if (path.IsEmpty || path[0] != '/')
            return false;
        // The key is the path itself until a segment is percent-encoded: only from there on is it built decoded (with
        // the path before that segment), so a plain path, the common case, allocates at most its own string.
        StringBuilder? decoded = null;
        var rest = path[1..];
        while (true)
        {
            var slash = rest.IndexOf('/');
            var raw = slash < 0 ? rest : rest[..slash];
            var last = slash < 0;
            if (raw.IsEmpty)
            {
                // "/" alone or a trailing slash names a directory; an empty segment inside ("a//b") is refused.
                if (!last)
                    return false;
                decoded?.Append('/');
                break;
            }
            var segment = raw;
            if (raw.IndexOf('%') >= 0)
            {
                if (!TryDecodeSegment(raw, out var text))
                    return false;
                segment = text;
                decoded ??= new StringBuilder(path.Length).Append(path[..(path.Length - rest.Length - 1)]);
            }
            if (!IsSafeSegment(segment))
                return false;
            decoded?.Append('/').Append(segment);
            if (last)
                break;
            rest = rest[(slash + 1)..];
        }
        key = decoded?.ToString() ?? (path.Length == target.Length ? target : path.ToString());
        return true;
    }

    /// <summary>
    /// True when a decoded path segment names an entry inside its directory: not empty, not "." or "..", no
    /// separator, NUL or control character, not rooted, and (for Windows, which strips trailing dots and spaces)
    /// not made only of dots and spaces.
    /// </summary>
    /// <param name="segment">One decoded path segment.</param>
    /// <returns>True when the segment is safe to join under a directory.</returns>
    public static bool IsSafeSegment(ReadOnlySpan<char> segment)
    {
        if (segment.IsEmpty || segment.TrimEnd(". ").IsEmpty)
            return false;
        foreach (var c in segment)
        {
            if (c is '/' or '\\' || char.IsControl(c))
                return false;
            if (c == ':' && OperatingSystem.IsWindows())
                return false;
        }
        return !Path.IsPathRooted(segment);
    }

    /// <summary>
    /// The real path of <paramref name="segments"/> below <paramref name="realRoot"/> (a directory path with no
    /// symlink in it, see <see cref="RealPath"/>), following symlinks only while every step stays inside it; an
    /// absolute link target is resolved completely on its own and must land inside.
    /// </summary>
    /// <param name="realRoot">The served directory, fully resolved.</param>
    /// <param name="segments">Safe segments (<see cref="IsSafeSegment"/>) relative to the root.</param>
    /// <returns>The resolved path (it may not exist), or null when it would leave the root.</returns>
    public static string? ResolveWithin(string realRoot, IReadOnlyList<string> segments)
    {
        var pending = new Stack<string>();
        for (var i = segments.Count - 1; i >= 0; i--)
            pending.Push(segments[i]);
        var hops = 0;
        return Walk(realRoot, pending, realRoot, ref hops);
    }

    /// <summary>The path with every symlink in it resolved (its real location), or null when a link cannot be followed.</summary>
    /// <param name="path">An absolute or relative path.</param>
    /// <returns>The real path; it may name something that does not exist.</returns>
    public static string? RealPath(string path)
    {
        var full = Path.GetFullPath(path);
        var root = Path.GetPathRoot(full)!;
        var hops = 0;
        return Walk(root, SegmentsOf(full[root.Length..]), boundary: null, ref hops);
    }

    /// <summary>True when <paramref name="path"/> is <paramref name="root"/> or below it (no trailing separator on root).</summary>
    public static bool IsWithin(string root, string path)
    {
        var trimmed = Path.TrimEndingDirectorySeparator(root);
        if (path.Length == trimmed.Length)
            return path.Equals(trimmed, PathComparison);
        return path.Length > trimmed.Length
            && path.StartsWith(trimmed, PathComparison)
            && (path[trimmed.Length] == Path.DirectorySeparatorChar || path[trimmed.Length] == Path.AltDirectorySeparatorChar
                || Path.EndsInDirectorySeparator(trimmed));
    }

    // Resolves pending segments one at a time from start, which has no symlink in it. With a boundary, every step
    // must stay inside it: ".." above the boundary or a link whose real target is outside it ends the walk with null.
    // hops counts the links followed, across nested walks.
    private static string? Walk(string start, Stack<string> pending, string? boundary, ref int hops)
    {
        var current = start;
        while (pending.Count > 0)
        {
            var segment = pending.Pop();
            if (segment.Length == 0 || segment == ".")
                continue;
            if (segment == "..")
            {
                var parent = Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(current));
                current = parent ?? current;
                if (boundary != null && !IsWithin(boundary, current))
                    return null;
                continue;
            }
            var next = Path.Join(current, segment);
            string? target;
            try
            {
                target = new FileInfo(next).LinkTarget;
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                return null;
            }
            if (target == null)
            {
                current = next;
                continue;
            }
            if (++hops > MaxLinkHops)
                return null;
            if (Path.IsPathRooted(target))
            {
                // An absolute target may name the boundary through another link (a served directory reached by a
                // symlink): resolve it completely on its own, then it must land inside.
                var targetRoot = Path.GetPathRoot(target)!;
                if (Walk(targetRoot, SegmentsOf(target[targetRoot.Length..]), boundary: null, ref hops) is not { } resolved
                    || (boundary != null && !IsWithin(boundary, resolved)))
                    return null;
                current = resolved;
            }
            else
            {
                // Relative targets are relative to the directory holding the link: current.
                PushFront(pending, SegmentsOf(target));
            }
        }
        return current;
    }

    private static Stack<string> SegmentsOf(string path)
    {
        var parts = path.Split(['/', Path.DirectorySeparatorChar], StringSplitOptions.RemoveEmptyEntries);
        var stack = new Stack<string>(parts.Length);
        for (var i = parts.Length - 1; i >= 0; i--)
            stack.Push(parts[i]);
        return stack;
    }

    private static void PushFront(Stack<string> pending, Stack<string> front)
    {
        var items = front.ToArray();
        for (var i = items.Length - 1; i >= 0; i--)
            pending.Push(items[i]);
    }

    // Percent-decodes one segment that has an escape (RFC 3986 2.1) as strict UTF-8; a malformed escape or invalid
    // UTF-8 fails. The escapes are decoded on the UTF-8 bytes of the segment, so raw non-ASCII text some clients send is kept.
    private static bool TryDecodeSegment(ReadOnlySpan<char> raw, out string segment)
    {
        segment = "";
        var encoded = Encoding.UTF8.GetBytes(raw.ToArray());
        var decoded = new byte[encoded.Length];
        var length = 0;
        for (var i = 0; i < encoded.Length; i++)
        {
            if (encoded[i] != (byte)'%')
            {
                decoded[length++] = encoded[i];
                continue;
            }
            if (i + 2 >= encoded.Length || !char.IsAsciiHexDigit((char)encoded[i + 1]) || !char.IsAsciiHexDigit((char)encoded[i + 2]))
                return false;
            decoded[length++] = (byte)((HexValue((char)encoded[i + 1]) << 4) | HexValue((char)encoded[i + 2]));
            i += 2;
        }
        try
        {
            segment = s_strictUtf8.GetString(decoded, 0, length);
            return true;
        }
        catch (DecoderFallbackException)
        {
            return false;
        }
    }

    private static int HexValue(char c) => c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}
