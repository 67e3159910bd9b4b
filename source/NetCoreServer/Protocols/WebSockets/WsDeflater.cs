using System;
using System.IO.Compression;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Compresses outgoing messages for permessage-deflate (RFC 7692 §7.2.1): each message is deflated and sync-flushed
/// (<see cref="DeflateStream.Flush()"/> ends with an empty stored block, <c>00 00 ff ff</c>), and those four bytes are
/// removed. With context takeover one compressor runs for the whole connection, so later messages refer back to
/// earlier ones; without, each message gets a fresh compressor, released after it. .NET's DeflateStream always uses a
/// 15-bit (32 KiB) window: a peer that limits this side's window gets uncompressed messages instead (see
/// <see cref="WsDeflateParameters"/>). Memory: a zlib compressor holds about 256 KiB of native state while it lives
/// (for the connection's life with context takeover). Not thread-safe.
/// </summary>
internal sealed class WsDeflater : IDisposable
{
    private readonly WsOutputStream _output = new();
    private readonly CompressionLevel _level;
    private DeflateStream? _deflate;
    private bool _disposed;

    /// <param name="noContextTakeover">Start every message with an empty window (the peer was told so, or asked for it).</param>
    /// <param name="level">zlib's effort; <see cref="CompressionLevel.Optimal"/> (zlib level 6) by default.</param>
    public WsDeflater(bool noContextTakeover, CompressionLevel level = CompressionLevel.Optimal)
    {
        NoContextTakeover = noContextTakeover;
        _level = level;
    }

    public bool NoContextTakeover { get; }

    /// <summary>
    /// Compresses one whole message and returns the frame payload (without the <c>00 00 ff ff</c> tail), valid until
    /// the next call. An empty message gives the one byte <c>00</c> (an empty stored block whose rest is the tail).
    /// </summary>
    public ReadOnlySpan<byte> Compress(ReadOnlySpan<byte> message)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        _output.Reset();
        if (message.IsEmpty)
        {
            // DeflateStream flushes nothing when nothing was written; §7.2.3.6 gives the empty block's first byte.
            _output.WriteByte(0x00);
            return _output.Written;
        }
        _deflate ??= new DeflateStream(_output, _level, leaveOpen: true);
        _deflate.Write(message);
        _deflate.Flush();
        var written = _output.Written;
        if (written.Length < 4 || !written.EndsWith((ReadOnlySpan<byte>)[0x00, 0x00, 0xFF, 0xFF]))
            throw new InvalidOperationException("the compressor did not end the message with a sync flush");
        var length = written.Length - 4;
        if (NoContextTakeover)
            DropCompressor();
        return _output.Written[..length];
    }

    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        DropCompressor();
        _output.Dispose();
    }

    private void DropCompressor()
    {
        if (_deflate == null)
            return;
        // Disposing writes a final block; the message is already complete without it.
        _output.Discarding = true;
        _deflate.Dispose();
        _deflate = null;
    }
}
