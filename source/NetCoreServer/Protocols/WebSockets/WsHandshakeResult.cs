using System.IO.Compression;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a successful opening handshake settled on, and the codecs it calls for.</summary>
/// <param name="Subprotocol">The subprotocol chosen by the server, or null.</param>
/// <param name="Deflate">The permessage-deflate parameters, or null when it is off.</param>
internal readonly record struct WsHandshakeResult(string? Subprotocol, WsDeflateParameters? Deflate)
{
    /// <summary>A decoder for what <paramref name="role"/> receives, decompressing when permessage-deflate is on.</summary>
    public WsFrameDecoder CreateDecoder(WsRole role, int maxMessageSize = WsFrameDecoder.DefaultMaxMessageSize)
        => new(role, Deflate?.CreateInflater(role), maxMessageSize);

    /// <summary>A writer for what <paramref name="role"/> sends, compressing when permessage-deflate is on and this side's window allows it.</summary>
    public WsFrameWriter CreateWriter(WsRole role, WsDeflateOptions? options = null)
        => new(role, Deflate?.CreateDeflater(role, options?.Level ?? CompressionLevel.Optimal), options?.MinCompressSize ?? 0);
}
