using System;
using System.Buffers;
using System.IO;
using System.IO.Compression;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Decompresses incoming permessage-deflate messages (RFC 7692 §7.2.2) as their frames arrive: compressed bytes are
/// fed in pieces, output is pulled into the caller's buffer only as far as it has room (so a deflate bomb costs no
/// more memory than the caller allows), and <c>00 00 ff ff</c> is appended at the end of each message. Its window is
/// 15 bits, which inflates data from any window size a peer may use. The decompressor lives across messages (context
/// takeover) unless the peer declared it resets its own each message, in which case it is released after each message
/// (no window kept while idle); it is also restarted after a message that ended its deflate stream with a final block
/// (§7.2.3.3 allows that shape). Not thread-safe.
/// </summary>
internal sealed class WsInflater : IDisposable
{
    /// <summary>Compressed bytes are handed to the decompressor in pieces of at most this size.</summary>
    public const int InputChunkSize = 4096;

    private static readonly byte[] s_tail = [0x00, 0x00, 0xFF, 0xFF];

    private readonly WsInputStream _input = new();
    private DeflateStream? _inflate;
    private byte[]? _chunk;
    private bool _finished;
    private bool _disposed;

    /// <param name="noContextTakeover">The peer starts every message with an empty window: nothing need be kept between messages.</param>
    public WsInflater(bool noContextTakeover) => NoContextTakeover = noContextTakeover;

    public bool NoContextTakeover { get; }

    /// <summary>Where the caller puts the next compressed piece (unmasked) before <see cref="SetInput"/>; pooled, held only while a message is read.</summary>
    public Span<byte> InputBuffer => _chunk ??= ArrayPool<byte>.Shared.Rent(InputChunkSize);

    /// <summary>Feeds the first <paramref name="count"/> bytes of <see cref="InputBuffer"/>; pull with <see cref="Inflate"/> until it returns 0 before feeding more.</summary>
    public void SetInput(int count) => _input.SetInput(_chunk!, 0, count);

    /// <summary>Feeds the <c>00 00 ff ff</c> the sender removed; call once the message's last frame is in, then pull with <see cref="Inflate"/>.</summary>
    public void SetTail() => _input.SetInput(s_tail, 0, s_tail.Length);

    /// <summary>
    /// Decompresses into <paramref name="output"/> and returns how many bytes it wrote: 0 when the input fed so far is
    /// used up (or the deflate stream has ended), -1 when the input is not valid deflate data.
    /// </summary>
    public int Inflate(Span<byte> output)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (output.IsEmpty || _finished)
            return 0;
        _inflate ??= new DeflateStream(_input, CompressionMode.Decompress, leaveOpen: true);
        _input.ClearAskedWhenEmpty();
        int written;
        try
        {
            written = _inflate.Read(output);
        }
        catch (InvalidDataException)
        {
            return -1;
        }
        // A DeflateStream whose stream has ended returns 0 without asking for input (measured on .NET 10).
        if (written == 0 && !_input.AskedWhenEmpty)
            _finished = true;
        return written;
    }

    /// <summary>The message is complete: releases the input piece, and the decompressor when it must not (or cannot) carry on.</summary>
    public void EndMessage()
    {
        if (_chunk != null)
        {
            ArrayPool<byte>.Shared.Return(_chunk);
            _chunk = null;
        }
        _input.SetInput([], 0, 0);
        if (NoContextTakeover || _finished)
            DropDecompressor();
    }

    public void Dispose()
    {
        if (_disposed)
            return;
        EndMessage();
        DropDecompressor();
        _disposed = true;
    }

    private void DropDecompressor()
    {
        _inflate?.Dispose();
        _inflate = null;
        _finished = false;
    }
}
