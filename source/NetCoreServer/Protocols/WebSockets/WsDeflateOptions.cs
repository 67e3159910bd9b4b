using System.IO.Compression;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// What one side is willing to do with permessage-deflate (RFC 7692). A server accepts a client's offer with these,
/// a client offers them. The two context-takeover switches trade compression ratio for memory: a compressor that keeps
/// its context holds about 256 KiB of native zlib state for the connection's life, a decompressor about 40 KiB.
/// </summary>
internal sealed class WsDeflateOptions
{
    /// <summary>
    /// Server: always reset the server's compression context per message, and say so (server_no_context_takeover), so
    /// an idle connection keeps no compressor. Client: ask the server to do that, so the client keeps no decompressor
    /// between messages. Default false.
    /// </summary>
    public bool ServerNoContextTakeover { get; init; }

    /// <summary>
    /// Server: ask the client to reset its context per message (client_no_context_takeover), so the server keeps no
    /// decompressor between messages. Client: declare that it resets its own. Default false.
    /// </summary>
    public bool ClientNoContextTakeover { get; init; }

    /// <summary>zlib's effort for outgoing messages; default <see cref="CompressionLevel.Optimal"/> (zlib level 6).</summary>
    public CompressionLevel Level { get; init; } = CompressionLevel.Optimal;

    /// <summary>Messages shorter than this go uncompressed; default 0 (every non-empty message is compressed).</summary>
    public int MinCompressSize { get; init; }
}
