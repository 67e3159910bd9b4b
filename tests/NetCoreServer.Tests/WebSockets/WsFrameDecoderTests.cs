using System;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using NetCoreServer.Protocols.WebSockets;
using static NetCoreServer.Tests.WebSockets.WsTestFrames;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// Valid frame streams through <see cref="WsFrameDecoder"/>, each fed whole, cut once at every position and one byte
/// at a time: the RFC 6455 §5.7 examples byte for byte, the three length encodings, fragmentation with control frames
/// in between, UTF-8 split across fragments, and close frames.
/// </summary>
[TestFixture]
public sealed class WsFrameDecoderTests
{
    private static IEnumerable<TestCaseData> ValidStreams()
    {
        // RFC 6455 §5.7, byte for byte.
        yield return Case("a single-frame unmasked text message (RFC 6455 5.7)", WsRole.Client,
            WsFeed.Bytes("81 05 48 65 6c 6c 6f"), "text:Hello");
        yield return Case("a single-frame masked text message (RFC 6455 5.7)", WsRole.Server,
            WsFeed.Bytes("81 85 37 fa 21 3d 7f 9f 4d 51 58"), "text:Hello");
        yield return Case("a fragmented unmasked text message (RFC 6455 5.7)", WsRole.Client,
            WsFeed.Bytes("01 03 48 65 6c 80 02 6c 6f"), "text:Hello");
        yield return Case("an unmasked ping (RFC 6455 5.7)", WsRole.Client,
            WsFeed.Bytes("89 05 48 65 6c 6c 6f"), "ping:Hello");
        yield return Case("a masked pong (RFC 6455 5.7)", WsRole.Server,
            WsFeed.Bytes("8a 85 37 fa 21 3d 7f 9f 4d 51 58"), "pong:Hello");
        var b256 = Enumerable.Range(0, 256).Select(i => (byte)i).ToArray();
        yield return Case("256 bytes of binary in a single unmasked frame (RFC 6455 5.7, 16-bit length)", WsRole.Client,
            Concat(WsFeed.Bytes("82 7E 01 00"), b256), $"binary:256:{Checksum(b256)}");
        var b64k = Enumerable.Range(0, 65536).Select(i => (byte)(i * 7)).ToArray();
        yield return Case("64 KiB of binary in a single unmasked frame (RFC 6455 5.7, 64-bit length)", WsRole.Client,
            Concat(WsFeed.Bytes("82 7F 00 00 00 00 00 01 00 00"), b64k), $"binary:65536:{Checksum(b64k)}");
        yield return Case("64 KiB of masked binary (64-bit length)", WsRole.Server,
            Frame(0x82, b64k, RfcMask), $"binary:65536:{Checksum(b64k)}");

        yield return Case("the boundaries of each length encoding, masked", WsRole.Server,
            Concat(Frame(0x82, new byte[125], RfcMask), Frame(0x82, new byte[126], RfcMask), Frame(0x82, new byte[65535], RfcMask), Frame(0x82, new byte[65536], RfcMask)),
            $"binary:125:{Checksum(new byte[125])}", $"binary:126:{Checksum(new byte[126])}",
            $"binary:65535:{Checksum(new byte[65535])}", $"binary:65536:{Checksum(new byte[65536])}");
        yield return Case("data lengths in a longer encoding than needed (accepted; control frames must use 7 bits)", WsRole.Client,
            Concat(Frame(0x81, Utf8("a"), lengthBytes: 2), Frame(0x81, Utf8("b"), lengthBytes: 8), Frame(0x82, new byte[200], lengthBytes: 8)),
            "text:a", "text:b", $"binary:200:{Checksum(new byte[200])}");
        yield return Case("empty messages, an empty ping and an empty fragment", WsRole.Server,
            Concat(Frame(0x81, [], RfcMask), Frame(0x82, [], RfcMask), Frame(0x89, [], RfcMask), Frame(0x01, [], RfcMask), Frame(0x80, Utf8("x"), RfcMask)),
            "text:", "binary:0:", "ping:", "text:x");
        yield return Case("control frames between the fragments of a message", WsRole.Server,
            Concat(Frame(0x01, Utf8("He"), RfcMask), Frame(0x89, Utf8("p1"), RfcMask), Frame(0x00, Utf8("l"), RfcMask),
                Frame(0x8A, Utf8("p2"), RfcMask), Frame(0x00, [], RfcMask), Frame(0x80, Utf8("lo"), RfcMask), Frame(0x81, Utf8("next"), RfcMask)),
            "ping:p1", "pong:p2", "text:Hello", "text:next");
        yield return Case("a fragmented binary message", WsRole.Client,
            Concat(Frame(0x02, [1, 2]), Frame(0x00, [3]), Frame(0x80, [4, 5])), "binary:5:0102030405");

        // UTF-8 cut across fragments at every byte of multi-byte characters (2, 3 and 4 bytes).
        var kosme = Utf8("κόσμε €𝄞");
        for (var cut = 1; cut < kosme.Length; cut++)
        {
            yield return Case($"UTF-8 split across fragments after byte {cut}", WsRole.Server,
                Concat(Frame(0x01, kosme.AsSpan(0, cut), RfcMask), Frame(0x80, kosme.AsSpan(cut), RfcMask)), "text:κόσμε €𝄞");
        }
        yield return Case("UTF-8 in one byte per fragment", WsRole.Client,
            Concat(kosme.Select((b, i) => Frame(i == 0 ? 0x01 : i == kosme.Length - 1 ? 0x80 : 0x00, [b])).ToArray()), "text:κόσμε €𝄞");

        yield return Case("a close frame with a status and a reason; bytes after it are ignored", WsRole.Server,
            Concat(Frame(0x88, ClosePayload(1000, Utf8("bye ✓")), RfcMask), WsFeed.Bytes("ff ff ff")), "close:1000:bye ✓");
        yield return Case("an empty close frame reads as 1005", WsRole.Client, Frame(0x88, []), "close:1005:");
        yield return Case("a close frame in the middle of a fragmented message", WsRole.Client,
            Concat(Frame(0x01, Utf8("par")), Frame(0x88, ClosePayload(1001))), "close:1001:");
        foreach (var status in new[] { 1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999 })
            yield return Case($"the valid close status {status}", WsRole.Client, Frame(0x88, ClosePayload(status)), $"close:{status}:");
    }

    [TestCaseSource(nameof(ValidStreams))]
    public void ValidStreamsDecodeTheSameWhateverTheSplit(bool server, byte[] wire, string[] expected)
    {
        var events = WsFeed.AllSplitsAgree(() => new WsFrameDecoder(server ? WsRole.Server : WsRole.Client), wire);
        Assert.That(events, Is.EqualTo(expected));
    }

    [Test]
    public void AHeaderIsConsumedOnlyWhenWhole()
    {
        using var decoder = new WsFrameDecoder(WsRole.Server);
        var frame = Frame(0x82, new byte[300], RfcMask);
        // 2 + 2 (16-bit length) + 4 (mask) = 8 header bytes.
        for (var i = 0; i < 8; i++)
        {
            Assert.That(decoder.Read(frame.AsSpan(0, i), out var consumed), Is.EqualTo(WsDecodeResult.NeedMoreData));
            Assert.That(consumed, Is.Zero, $"a partial header of {i} bytes stays with the caller");
        }
        Assert.That(decoder.Read(frame.AsSpan(0, 8), out var header), Is.EqualTo(WsDecodeResult.NeedMoreData));
        Assert.That(header, Is.EqualTo(8));
        Assert.That(decoder.Read(frame.AsSpan(8, 100), out var part), Is.EqualTo(WsDecodeResult.NeedMoreData));
        Assert.That(part, Is.EqualTo(100), "payload bytes are consumed as they arrive");
        Assert.That(decoder.Read(frame.AsSpan(108), out var rest), Is.EqualTo(WsDecodeResult.Message));
        Assert.That(rest, Is.EqualTo(200));
        Assert.That(decoder.Payload.Count, Is.EqualTo(300));
    }

    [Test]
    public void ReceiveRaisesEachEventAndStopsAtTheClose()
    {
        var handler = new RecordingHandler();
        using var decoder = new WsFrameDecoder(WsRole.Client);
        var wire = Concat(Frame(0x81, Utf8("a")), Frame(0x89, Utf8("b")), Frame(0x8A, Utf8("c")), Frame(0x82, [9]), Frame(0x88, ClosePayload(1000, Utf8("x"))), Frame(0x81, Utf8("after")));
        Assert.That(decoder.Receive(wire, handler), Is.EqualTo(wire.Length));
        Assert.That(handler.Events, Is.EqualTo(new[] { "Text:a", "ping:b", "pong:c", "Binary:\t", "close:1000:x" }));
    }

    [Test]
    public void ReceiveReportsAFailureOnceAndConsumesEverything()
    {
        var handler = new RecordingHandler();
        using var decoder = new WsFrameDecoder(WsRole.Server);
        var wire = Concat(Frame(0x81, Utf8("ok"), RfcMask), Frame(0x81, Utf8("unmasked")));
        Assert.That(decoder.Receive(wire, handler), Is.EqualTo(wire.Length));
        Assert.That(handler.Events, Is.EqualTo(new[] { "Text:ok", "failure:1002" }));
        Assert.That(decoder.Read(wire, out var consumed), Is.EqualTo(WsDecodeResult.Error));
        Assert.That(consumed, Is.Zero);
    }

    [Test]
    public void AMessageBufferIsReturnedOnTheNextCall()
    {
        using var decoder = new WsFrameDecoder(WsRole.Client);
        var wire = Frame(0x82, new byte[1000]);
        Assert.That(decoder.Read(wire, out _), Is.EqualTo(WsDecodeResult.Message));
        Assert.That(decoder.Payload.Count, Is.EqualTo(1000));
        Assert.That(decoder.Read([], out _), Is.EqualTo(WsDecodeResult.NeedMoreData));
        Assert.That(decoder.Payload.Count, Is.Zero, "the payload is only valid until the next call");
    }

    [Test]
    public void ReceiveGivesTheBufferBackAfterTheReadUnlessAMessageIsUnderWay()
    {
        var handler = new RecordingHandler();
        using var decoder = new WsFrameDecoder(WsRole.Client);
        var second = Frame(0x82, new byte[1000]);
        var wire = Concat(Frame(0x81, Utf8("one")), Frame(0x81, Utf8("two")), second);
        var split = wire.Length - second.Length + 500;

        Assert.That(decoder.Receive(wire.AsSpan(0, split), handler), Is.EqualTo(split));
        Assert.That(handler.Events, Is.EqualTo(new[] { "Text:one", "Text:two" }));
        Assert.That(decoder.HoldsBuffer, Is.True, "half a message is kept for the next read");

        Assert.That(decoder.Receive(wire.AsSpan(split), handler), Is.EqualTo(wire.Length - split));
        Assert.That(handler.Events, Has.Count.EqualTo(3));
        Assert.That(handler.Events[2], Does.StartWith("Binary:"));
        Assert.That(decoder.HoldsBuffer, Is.False, "an idle connection keeps no message buffer");
    }

    private static TestCaseData Case(string name, WsRole role, byte[] wire, params string[] expected)
        => new TestCaseData(role == WsRole.Server, wire, expected).SetName(name);

    private static string Checksum(byte[] bytes)
    {
        var hash = new HashCode();
        hash.AddBytes(bytes);
        return "#" + hash.ToHashCode().ToString("x8");
    }

    private sealed class RecordingHandler : IWsFrameHandler
    {
        public List<string> Events { get; } = [];

        public bool OnWsMessage(WsOpcode opcode, ArraySegment<byte> payload)
        {
            Events.Add($"{opcode}:{System.Text.Encoding.UTF8.GetString(payload)}");
            return true;
        }

        public void OnWsPing(ArraySegment<byte> payload) => Events.Add("ping:" + System.Text.Encoding.UTF8.GetString(payload));

        public void OnWsPong(ArraySegment<byte> payload) => Events.Add("pong:" + System.Text.Encoding.UTF8.GetString(payload));

        public void OnWsClose(int status, ArraySegment<byte> reason) => Events.Add($"close:{status}:{System.Text.Encoding.UTF8.GetString(reason)}");

        public void OnWsFailure(int status, string reason) => Events.Add($"failure:{status}");
    }
}
