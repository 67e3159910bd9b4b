using System;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Prepares the frames one connection sends: unmasked for a server, masked with a fresh key per frame for a client
/// (RFC 6455 §5.3), and compressed with permessage-deflate when negotiated (RFC 7692 §6: RSV1 on the frame, a
/// single-frame message; fragments and control frames always go uncompressed, which §6 allows). Not thread-safe: the
/// caller serialises calls and queues each frame before preparing the next one, in the same order, since with context
/// takeover a compressed message refers back to the ones before it.
/// </summary>
internal sealed class WsFrameWriter : IDisposable
{
    private readonly byte[] _head = new byte[WsFrameEncoder.MaxHeaderSize];
    private readonly byte[] _control = new byte[WsFrameEncoder.MaxControlPayload];
    private readonly bool _masked;
    private WsDeflater? _deflater;

    /// <param name="role">Server frames go unmasked, client frames masked.</param>
    /// <param name="deflater">The compressor when permessage-deflate was negotiated and this side may compress; null sends everything uncompressed.</param>
    /// <param name="minCompressSize">Messages shorter than this go uncompressed (default 0: all non-empty ones are compressed).</param>
    public WsFrameWriter(WsRole role, WsDeflater? deflater = null, int minCompressSize = 0)
    {
        Role = role;
        _masked = role == WsRole.Client;
        _deflater = deflater;
        MinCompressSize = Math.Max(1, minCompressSize);
    }

    public WsRole Role { get; }

    /// <summary>True when messages are compressed (permessage-deflate negotiated and allowed for this side).</summary>
    public bool Compresses => _deflater != null;

    /// <summary>The shortest message that is compressed; shorter ones go uncompressed (an empty one always does).</summary>
    public int MinCompressSize { get; }

    /// <summary>
    /// Prepares a data or control frame. A whole text or binary message (<paramref name="fin"/> true) is compressed when
    /// permessage-deflate is on and it is at least <see cref="MinCompressSize"/> bytes. <paramref name="fin"/> false sends
    /// a fragment, followed by <see cref="WsOpcode.Continuation"/> frames; the caller keeps to §5.4 (no other data message
    /// in between). Text is not checked for UTF-8 here: sessions encode strings themselves. A control payload over
    /// 125 bytes throws <see cref="ArgumentException"/> (callers check first: no peer would accept it).
    /// </summary>
    public WsFrame Prepare(WsOpcode opcode, ReadOnlySpan<byte> payload, bool fin = true)
    {
        var compressed = false;
        if (_deflater != null && fin && opcode is WsOpcode.Text or WsOpcode.Binary && payload.Length >= MinCompressSize)
        {
            payload = _deflater.Compress(payload);
            compressed = true;
        }
        var key = _masked ? WsMask.NewKey() : 0;
        var size = WsFrameEncoder.WriteHeader(_head, opcode, payload.Length, fin, compressed, _masked, key);
        return new WsFrame(_head.AsSpan(0, size), payload, _masked, key);
    }

    /// <summary>Prepares a close frame (see <see cref="WsFrameEncoder.WriteClosePayload"/> for what is sent of the status and reason).</summary>
    public WsFrame PrepareClose(int status, ReadOnlySpan<byte> reason)
    {
        var length = WsFrameEncoder.WriteClosePayload(_control, status, reason);
        return Prepare(WsOpcode.Close, _control.AsSpan(0, length));
    }

    /// <summary>Releases the compressor (its native state and buffers).</summary>
    public void Dispose()
    {
        _deflater?.Dispose();
        _deflater = null;
    }
}
