namespace NetCoreServer.Protocols.Http;

/// <summary>What <see cref="FileCache.FindForRequest"/> found.</summary>
internal enum StaticLookup
{
    /// <summary>A cached value (and, for a file, its validators).</summary>
    Found,

    /// <summary>Nothing is cached under the path and no inserted directory has the file.</summary>
    NotFound,

    /// <summary>The path is malformed or tries to leave the served directories: dot segments, encoded separators, NUL, …</summary>
    Refused,
}
