using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using NetCoreServer.Transports;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>
/// One case of the table in the spirit of the Autobahn suite: what a client sends (whole masked frames, in the order
/// given, possibly in one write) and what the server must answer: frames in order, then whether it closes the
/// connection. A failing case also expects OnWsError on the server.
/// </summary>
public sealed class WsCase
{
    public WsCase(string name, byte[][] send, params WsExpect[] expect)
    {
        Name = name;
        Send = send;
        Expect = expect;
    }

    public string Name { get; }

    /// <summary>Whole frames (already masked) to send, each in its own write unless <see cref="OneWrite"/>.</summary>
    public byte[][] Send { get; }

    public WsExpect[] Expect { get; }

    /// <summary>Send every frame in one write (the server then sees them in one read).</summary>
    public bool OneWrite { get; init; }

    /// <summary>Offer and enable permessage-deflate.</summary>
    public bool Deflate { get; init; }

    /// <summary>The server's message size limit for this case (default 64 KiB, small so limit cases are cheap).</summary>
    public int MaxMessageSize { get; init; } = 64 * 1024;

    public override string ToString() => Name;

    // Builders for the table: masked client frames with any first byte.
    internal static byte[] F(int first, byte[] payload, int lengthBytes = 0) => WsTestFrames.Frame(first, payload, RawWsClient.Mask(), lengthBytes);

    internal static byte[] Text(string text, bool fin = true) => F((fin ? 0x80 : 0) | 0x1, WsTestFrames.Utf8(text));

    internal static byte[] Cont(byte[] payload, bool fin) => F((fin ? 0x80 : 0) | 0x0, payload);

    internal static byte[] Close(int status, string reason = "") => F(0x88, WsTestFrames.ClosePayload(status, WsTestFrames.Utf8(reason)));

    internal static byte[] Bytes(params int[] values) => values.Select(v => (byte)v).ToArray();

    internal static byte[] Repeat(byte value, int count) => Enumerable.Repeat(value, count).ToArray();

    /// <summary>permessage-deflate's encoding of a message (RFC 7692 §7.2.1): raw deflate, sync-flushed, the final 00 00 FF FF removed.</summary>
    internal static byte[] Compress(byte[] message)
    {
        using var output = new MemoryStream();
        using (var deflate = new DeflateStream(output, CompressionLevel.Optimal, leaveOpen: true))
        {
            deflate.Write(message);
            deflate.Flush();
        }
        var bytes = output.ToArray();
        var tail = bytes.AsSpan().LastIndexOf(new byte[] { 0x00, 0x00, 0xFF, 0xFF });
        return tail >= 0 ? bytes[..tail] : bytes;
    }

    /// <summary>The reverse: the payload of a compressed frame back to the message.</summary>
    internal static byte[] Inflate(byte[] payload)
    {
        using var input = new MemoryStream([.. payload, 0x00, 0x00, 0xFF, 0xFF]);
        using var inflate = new DeflateStream(input, CompressionMode.Decompress);
        using var output = new MemoryStream();
        var buffer = new byte[4096];
        int read;
        try
        {
            while ((read = inflate.Read(buffer)) > 0)
                output.Write(buffer, 0, read);
        }
        catch (InvalidDataException)
        {
            // The stream has no final block (a sync-flushed message): what was read is the message.
        }
        return output.ToArray();
    }
}

/// <summary>One expected server frame: its opcode and payload (or, for a close frame, its status), or the connection's end.</summary>
public readonly record struct WsExpect(int Opcode, byte[]? Payload = null, int CloseStatus = 0, bool Compressed = false, bool Failure = false)
{
    public static WsExpect TextFrame(string text) => new(0x1, WsTestFrames.Utf8(text));

    public static WsExpect BinaryFrame(byte[] payload) => new(0x2, payload);

    public static WsExpect PongFrame(byte[] payload) => new(0xA, payload);

    public static WsExpect CompressedText(string text) => new(0x1, WsTestFrames.Utf8(text), Compressed: true);

    /// <summary>A close frame with this status (1005: an empty close payload), after which the server must close TCP.</summary>
    public static WsExpect CloseFrame(int status) => new(0x8, CloseStatus: status);

    /// <summary>The server fails the connection: a close frame with this status (1002, 1007, 1009), OnWsError, then TCP closes.</summary>
    public static WsExpect FailWith(int status) => new(0x8, CloseStatus: status, Failure: true);

    public override string ToString() => Opcode == 0x8 ? $"close {CloseStatus}" : $"opcode {Opcode}";
}
