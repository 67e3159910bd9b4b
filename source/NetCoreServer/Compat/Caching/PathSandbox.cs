using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Enumeration;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Compat.Caching;

/// <summary>
/// Maps cache keys ("prefix/a/b.txt") to files below one directory and never outside it: a key is split into path
/// segments checked one by one (no "." or "..", separator, NUL, control character or rooted name, see
/// <see cref="StaticPath.IsSafeSegment"/>), and the file is resolved from the directory's real path following a
/// symlink only while it stays inside (<see cref="StaticPath.ResolveWithin"/>). Keys are taken as they are: URL
/// decoding is the HTTP lookup's, done once before. Immutable and thread-safe.
/// </summary>
internal sealed class PathSandbox
{
    /// <summary>Directories deeper than this below the root are not listed (their files still resolve by key).</summary>
    public const int MaxListDepth = 64;

    // "*.*" means every file, as it does for FileSystemWatcher and Directory.GetFiles.
    private readonly string _pattern;

    private PathSandbox(string realRoot, string prefix, string filter)
    {
        RealRoot = realRoot;
        KeyPrefix = prefix.Replace('\\', '/').TrimEnd('/');
        _pattern = FileSystemName.TranslateWin32Expression(filter);
    }

    /// <summary>The directory's real path (no symlink in it): what files must stay inside.</summary>
    public string RealRoot { get; }

    /// <summary>Keys start with this, then "/" (the prefix without its trailing slash: "" for "/").</summary>
    public string KeyPrefix { get; }

    /// <summary>The sandbox of an existing directory; null when it does not exist or its real path cannot be resolved.</summary>
    /// <param name="directory">The directory, absolute or relative, possibly through symlinks.</param>
    /// <param name="prefix">Key prefix; a trailing slash is ignored.</param>
    /// <param name="filter">File name pattern ("*.*", "*.html", "app-?.js").</param>
    public static PathSandbox? Create(string directory, string prefix, string filter)
    {
        if (!Directory.Exists(directory) || StaticPath.RealPath(directory) is not { } realRoot || !Directory.Exists(realRoot))
            return null;
        return new PathSandbox(realRoot, prefix, filter);
    }

    /// <summary>True when a file name passes the filter (case-insensitive on Windows only).</summary>
    public bool Matches(string name) => FileSystemName.MatchesWin32Expression(_pattern, name, ignoreCase: OperatingSystem.IsWindows());

    /// <summary>The key of the file at <paramref name="segments"/> below the root.</summary>
    public string KeyFor(string[] segments) => KeyPrefix + "/" + string.Join('/', segments);

    /// <summary>The safe path segments below the root that a key names; false when it names none (another prefix, a directory, an unsafe segment).</summary>
    public bool TrySplit(string key, out string[] segments)
    {
        segments = [];
        if (key.Length <= KeyPrefix.Length + 1 || !key.StartsWith(KeyPrefix, StringComparison.Ordinal) || key[KeyPrefix.Length] != '/')
            return false;
        segments = key[(KeyPrefix.Length + 1)..].Split('/');
        foreach (var segment in segments)
        {
            if (!StaticPath.IsSafeSegment(segment))
                return false;
        }
        return true;
    }

    /// <summary>
    /// The real path of the regular file at <paramref name="segments"/> (safe ones, from <see cref="TrySplit"/> or
    /// <see cref="List"/>) when its name passes the filter, with its stamp; null when it is filtered out, missing, a
    /// directory, or reached only by leaving the root.
    /// </summary>
    public (string Path, FileStamp Stamp)? Resolve(string[] segments)
    {
        if (segments.Length == 0 || !Matches(segments[^1]))
            return null;
        if (StaticPath.ResolveWithin(RealRoot, segments) is not { } file || FileStamp.Read(file) is not { } stamp)
            return null;
        return (file, stamp);
    }

    /// <summary>
    /// The entries of a directory below the root with safe names, and whether each is a real directory; symlinked
    /// directories are left out (a link's target is checked when a key resolves through it). Empty when unreadable.
    /// </summary>
    /// <param name="directory">Segments of the directory below the root (empty for the root).</param>
    public List<(string Name, bool IsDirectory)> List(string[] directory)
    {
        var result = new List<(string, bool)>();
        try
        {
            foreach (var item in new DirectoryInfo(Path.Join(RealRoot, Path.Join(directory))).EnumerateFileSystemInfos())
            {
                // A symlink's attributes carry ReparsePoint on every platform.
                if (item is DirectoryInfo && item.Attributes.HasFlag(FileAttributes.ReparsePoint))
                    continue;
                if (StaticPath.IsSafeSegment(item.Name))
                    result.Add((item.Name, item is DirectoryInfo));
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Gone or unreadable while listed: what was listed so far is kept.
        }
        return result;
    }
}
