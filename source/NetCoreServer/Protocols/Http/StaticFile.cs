using System;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The file behind a cached entry, as it was when it was read: where it is, its length and write time (to notice a
/// change), and the values an HTTP response needs (Content-Type, ETag, Last-Modified), computed once at load.
/// Immutable; a changed file gets a new instance.
/// </summary>
internal sealed class StaticFile
{
    public StaticFile(string fullPath, FileStamp stamp, string contentType, DateTimeOffset now)
    {
        FullPath = fullPath;
        Stamp = stamp;
        ContentType = contentType;
        ETag = HttpValidators.ETagFor(stamp.Length, stamp.LastWriteUtc);
        LastModified = HttpValidators.LastModifiedFor(stamp.LastWriteUtc, now);
        LastModifiedHttpDate = HttpValidators.FormatHttpDate(LastModified);
    }

    /// <summary>The real path of the file (no symlink in it), inside the served directory.</summary>
    public string FullPath { get; }

    /// <summary>Length and last write time when the file was read.</summary>
    public FileStamp Stamp { get; }

    /// <summary>Length of the file's content in bytes.</summary>
    public long Length => Stamp.Length;

    /// <summary>Content-Type by the extension of the requested name (<see cref="MimeTypes.ForPath"/>).</summary>
    public string ContentType { get; }

    /// <summary>Strong entity tag from length and write time (<see cref="HttpValidators.ETagFor(long, DateTimeOffset)"/>).</summary>
    public string ETag { get; }

    /// <summary>Last-Modified date: whole seconds, not later than the time of loading.</summary>
    public DateTimeOffset LastModified { get; }

    /// <summary><see cref="LastModified"/> in IMF-fixdate, ready for the header.</summary>
    public string LastModifiedHttpDate { get; }

    /// <summary>True while the file on disk still has the length and write time it had when read (one stat call).</summary>
    public bool IsCurrent() => FileStamp.Read(FullPath) == Stamp;
}
