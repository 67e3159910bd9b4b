namespace NetCoreServer.Protocols.Http;

/// <summary>What <see cref="FileCache.FindForRequest"/> found.</summary>
internal enum StaticLookup
{
    /// <summary>A cached value (and, for a file, its validators).</summary>
    Found,

    /// <summary>A file too large to cache (over the cache's budget): sent from the disk as it is read, never whole in memory.</summary>
    Streamed,

    /// <summary>Nothing is cached under the path and no inserted directory has the file.</summary>
    NotFound,

    /// <summary>The path is malformed or tries to leave the served directories: dot segments, encoded separators, NUL, …</summary>
    Refused,
}
