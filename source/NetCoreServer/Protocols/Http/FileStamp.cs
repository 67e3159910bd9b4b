using System;
using System.IO;

namespace NetCoreServer.Protocols.Http;

/// <summary>What identifies a version of a file cheaply: its length and last write time (UTC).</summary>
/// <param name="Length">Length in bytes.</param>
/// <param name="LastWriteUtc">Last write time, at the file system's resolution.</param>
internal readonly record struct FileStamp(long Length, DateTimeOffset LastWriteUtc)
{
    /// <summary>The stamp of a regular file now, following symlinks; null when nothing readable is there or it is a directory.</summary>
    /// <param name="path">Path of the file.</param>
    public static FileStamp? Read(string path)
    {
        try
        {
            var info = new FileInfo(path);
            return info.Exists ? new FileStamp(info.Length, new DateTimeOffset(info.LastWriteTimeUtc, TimeSpan.Zero)) : null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }
}
