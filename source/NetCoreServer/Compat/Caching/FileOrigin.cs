using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Compat.Caching;

/// <summary>Where a cached entry was read from: to check it against the disk, and to read it again when it changed.</summary>
/// <param name="Directory">The served directory it is below.</param>
/// <param name="Key">The key it was read for.</param>
/// <param name="Segments">The key's path below the directory, each segment checked safe.</param>
/// <param name="File">The file as it was when read.</param>
internal sealed record FileOrigin(ServedDirectory Directory, string Key, string[] Segments, StaticFile File);
