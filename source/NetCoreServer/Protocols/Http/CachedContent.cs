using System;

namespace NetCoreServer.Protocols.Http;

/// <summary>A cached value for a request.</summary>
/// <param name="Content">What was cached: a whole HTTP response when the HTTP server's handler cached the file; never changed by the cache, so it may be sent by reference. Empty for a file streamed from the disk.</param>
/// <param name="File">The file it was read from (Content-Type, ETag, Last-Modified); null for a value added by hand.</param>
/// <param name="Timeout">For a file streamed from the disk: its directory's timeout (the response's max-age).</param>
internal readonly record struct CachedContent(byte[] Content, StaticFile? File, TimeSpan Timeout = default);
