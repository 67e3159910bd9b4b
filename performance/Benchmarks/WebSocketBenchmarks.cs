using System;
using System.Linq;
using System.Text;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// WebSocket framing without sockets, for a text message of about <see cref="Size"/> bytes of mixed ASCII and
/// multi-byte UTF-8: encoding a server frame (unmasked), a client frame (masked while copied) and a compressed one
/// (permessage-deflate, context takeover), each written into a reused buffer; and decoding each kind (the server reads
/// masked frames, the client unmasked ones), with UTF-8 validation of the text, and decompression for the compressed
/// one. Steady state allocates nothing.
/// </summary>
[MemoryDiagnoser]
public class WebSocketBenchmarks
{
    private byte[] _text = [];
    private byte[] _wire = [];
    private byte[] _clientFrame = [];
    private byte[] _serverFrame = [];
    private byte[] _compressedClientFrame = [];
    private WsFrameWriter _serverWriter = null!;
    private WsFrameWriter _clientWriter = null!;
    private WsFrameWriter _deflatingWriter = null!;
    private WsFrameDecoder _serverDecoder = null!;
    private WsFrameDecoder _clientDecoder = null!;
    private WsFrameDecoder _inflatingDecoder = null!;

    /// <summary>Message size in bytes (cut back to a character boundary).</summary>
    [Params(128, 4096)]
    public int Size { get; set; }

    /// <summary>Makes the writers, decoders and wire frames, and checks that each frame decodes back to the text.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var pattern = Encoding.UTF8.GetBytes("{\"user\":\"Zoë\",\"text\":\"Grüße aus Köln – 東京 ✓ 🦊\",\"n\":42} ");
        var text = Enumerable.Repeat(pattern, Size / pattern.Length + 1).SelectMany(bytes => bytes).Take(Size).ToArray();
        var cut = text.Length;
        while ((text[cut - 1] & 0xC0) == 0x80 || text[cut - 1] >= 0xC0)
            cut--;
        _text = text[..cut];
        _wire = new byte[WsFrameEncoder.MaxHeaderSize + _text.Length + 64];

        _serverWriter = new WsFrameWriter(WsRole.Server);
        _clientWriter = new WsFrameWriter(WsRole.Client);
        _deflatingWriter = new WsFrameWriter(WsRole.Client, new WsDeflater(noContextTakeover: false));
        _serverDecoder = new WsFrameDecoder(WsRole.Server);
        _clientDecoder = new WsFrameDecoder(WsRole.Client);
        _inflatingDecoder = new WsFrameDecoder(WsRole.Server, new WsInflater(noContextTakeover: false));

        _serverFrame = _wire[..EncodeServer()];
        _clientFrame = _wire[..EncodeClient()];
        // A message compressed on its own, so it decodes the same however often it is read.
        using (var oneShot = new WsFrameWriter(WsRole.Client, new WsDeflater(noContextTakeover: true)))
        {
            var frame = oneShot.Prepare(WsOpcode.Text, _text);
            _compressedClientFrame = new byte[frame.Length];
            frame.CopyTo(_compressedClientFrame);
        }
        Check(_clientDecoder, _serverFrame, "the server frame");
        Check(_serverDecoder, _clientFrame, "the masked client frame");
        Check(_inflatingDecoder, _compressedClientFrame, "the compressed client frame");
        Check(_inflatingDecoder, _wire[..EncodeCompressed()], "a frame of the context-takeover compressor");
    }

    /// <summary>Releases the compressors and the decoders' buffers.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _serverWriter.Dispose();
        _clientWriter.Dispose();
        _deflatingWriter.Dispose();
        _serverDecoder.Dispose();
        _clientDecoder.Dispose();
        _inflatingDecoder.Dispose();
    }

    /// <summary>A server text frame, unmasked, written to the wire buffer.</summary>
    [Benchmark]
    public int EncodeServer() => Encode(_serverWriter);

    /// <summary>A client text frame, masked with a fresh key while copied to the wire buffer.</summary>
    [Benchmark]
    public int EncodeClient() => Encode(_clientWriter);

    /// <summary>A client text frame compressed with permessage-deflate (context takeover), then masked.</summary>
    [Benchmark]
    public int EncodeCompressed() => Encode(_deflatingWriter);

    /// <summary>The client reads a server frame: header, payload, UTF-8 validation.</summary>
    [Benchmark]
    public int DecodeServerFrame() => Decode(_clientDecoder, _serverFrame);

    /// <summary>The server reads a masked client frame: header, unmasking, UTF-8 validation.</summary>
    [Benchmark]
    public int DecodeClientFrame() => Decode(_serverDecoder, _clientFrame);

    /// <summary>The server reads a compressed masked client frame: unmasking, decompression, UTF-8 validation.</summary>
    [Benchmark]
    public int DecodeCompressed() => Decode(_inflatingDecoder, _compressedClientFrame);

    private int Encode(WsFrameWriter writer)
    {
        var frame = writer.Prepare(WsOpcode.Text, _text);
        frame.CopyTo(_wire);
        return frame.Length;
    }

    private static int Decode(WsFrameDecoder decoder, byte[] frame)
    {
        if (decoder.Read(frame, out var consumed) != WsDecodeResult.Message || consumed != frame.Length)
            throw new InvalidOperationException($"the frame did not decode as one message: {decoder.ErrorStatus} {decoder.ErrorReason}");
        return decoder.Payload.Count;
    }

    private void Check(WsFrameDecoder decoder, byte[] frame, string what)
    {
        Decode(decoder, frame);
        if (decoder.Opcode != WsOpcode.Text || !decoder.Payload.AsSpan().SequenceEqual(_text))
            throw new InvalidOperationException($"{what} did not decode back to the text");
    }
}
