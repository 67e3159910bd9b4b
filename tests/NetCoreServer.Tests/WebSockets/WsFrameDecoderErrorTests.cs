using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using NetCoreServer.Protocols.WebSockets;
using static NetCoreServer.Tests.WebSockets.WsTestFrames;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// Every way a peer breaks RFC 6455 framing, fed whole, cut at every position and one byte at a time: each ends in the
/// same close status (1002 protocol error, 1007 invalid data, 1009 too big) after the same events, whatever the split.
/// </summary>
[TestFixture]
public sealed class WsFrameDecoderErrorTests
{
    private const int SmallLimit = 1000;

    private static IEnumerable<TestCaseData> Violations()
    {
        // 1002: reserved bits and opcodes.
        yield return Case("RSV2 set", WsRole.Client, 1002, Frame(0xA1, Utf8("x")));
        yield return Case("RSV3 set", WsRole.Client, 1002, Frame(0x91, Utf8("x")));
        yield return Case("RSV1 set without permessage-deflate", WsRole.Client, 1002, Frame(0xC1, Utf8("x")));
        yield return Case("RSV1 on a continuation frame, with permessage-deflate", WsRole.Client, 1002,
            Concat(Frame(0x41, WsFeed.Bytes("f2 48")), Frame(0xC0, WsFeed.Bytes("cd c9"))), deflate: true);
        yield return Case("RSV1 on a control frame, with permessage-deflate", WsRole.Client, 1002, Frame(0xC9, Utf8("x")), deflate: true);
        foreach (var opcode in new[] { 3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF })
            yield return Case($"the reserved opcode {opcode:X}", WsRole.Client, 1002, Frame(0x80 | opcode, Utf8("x")));

        // 1002: masking by role.
        yield return Case("an unmasked frame from a client", WsRole.Server, 1002, Frame(0x81, Utf8("Hello")));
        yield return Case("a masked frame from a server", WsRole.Client, 1002, Frame(0x81, Utf8("Hello"), RfcMask));
        yield return Case("an unmasked ping from a client after a valid message", WsRole.Server, 1002,
            Concat(Frame(0x81, Utf8("ok"), RfcMask), Frame(0x89, [])), "text:ok");

        // 1002: control frames.
        yield return Case("a fragmented ping", WsRole.Client, 1002, Frame(0x09, Utf8("x")));
        yield return Case("a fragmented close", WsRole.Client, 1002, Frame(0x08, ClosePayload(1000)));
        yield return Case("a ping of 126 bytes", WsRole.Client, 1002, Frame(0x89, new byte[126]));
        yield return Case("a pong declaring a 16-bit length", WsRole.Server, 1002, Frame(0x8A, new byte[3], RfcMask, lengthBytes: 2));

        // 1002: fragmentation.
        yield return Case("a continuation without a message", WsRole.Client, 1002, Frame(0x80, Utf8("x")));
        yield return Case("a continuation after a complete message", WsRole.Client, 1002,
            Concat(Frame(0x81, Utf8("a")), Frame(0x80, Utf8("b"))), "text:a");
        yield return Case("a text frame inside a fragmented message", WsRole.Client, 1002,
            Concat(Frame(0x01, Utf8("a")), Frame(0x81, Utf8("b"))));
        yield return Case("a binary frame inside a fragmented message, after a ping", WsRole.Server, 1002,
            Concat(Frame(0x02, [1], RfcMask), Frame(0x89, [], RfcMask), Frame(0x02, [2], RfcMask)), "ping:");

        // 1002: lengths.
        yield return Case("a 64-bit length with its top bit set", WsRole.Client, 1002, WsFeed.Bytes("82 7F 80 00 00 00 00 00 00 01"));

        // 1002: close frames.
        yield return Case("a close frame of one byte", WsRole.Client, 1002, Frame(0x88, [0x03]));
        foreach (var status in new[] { 0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535 })
            yield return Case($"a close frame with the invalid status {status}", WsRole.Client, 1002, Frame(0x88, ClosePayload(status)));

        // 1007: UTF-8.
        yield return Case("an overlong encoding", WsRole.Client, 1007, Frame(0x81, WsFeed.Bytes("c0 80")));
        yield return Case("a UTF-16 surrogate", WsRole.Client, 1007, Frame(0x81, WsFeed.Bytes("ed a0 80")));
        yield return Case("a code point past U+10FFFF", WsRole.Client, 1007, Frame(0x81, WsFeed.Bytes("f4 90 80 80")));
        yield return Case("a byte that is never UTF-8", WsRole.Server, 1007, Frame(0x81, WsFeed.Bytes("48 ff 48"), RfcMask));
        yield return Case("a text message ending inside a character", WsRole.Client, 1007, Frame(0x81, WsFeed.Bytes("48 ce")));
        yield return Case("a character split across fragments, completed wrongly", WsRole.Client, 1007,
            Concat(Frame(0x01, WsFeed.Bytes("48 ce")), Frame(0x80, WsFeed.Bytes("41"))));
        yield return Case("a fragmented text message ending inside a character", WsRole.Server, 1007,
            Concat(Frame(0x01, WsFeed.Bytes("e2 82"), RfcMask), Frame(0x89, [], RfcMask), Frame(0x80, [], RfcMask)), "ping:");
        yield return Case("invalid UTF-8 in the middle of a long fragmented message (fails before its end)", WsRole.Client, 1007,
            Concat(Frame(0x01, Utf8(new string('a', 300))), Frame(0x00, WsFeed.Bytes("61 f8 61")), Frame(0x80, Utf8("never read"))));
        yield return Case("a close reason that is not UTF-8", WsRole.Client, 1007, Frame(0x88, ClosePayload(1000, WsFeed.Bytes("c3 28"))));
        yield return Case("compressed data that is not deflate", WsRole.Client, 1007, Frame(0xC2, WsFeed.Bytes("ff ff ff ff")), deflate: true);

        // 1009: size.
        yield return Case("a frame longer than the limit", WsRole.Client, 1009, Frame(0x82, new byte[SmallLimit + 1]), limit: SmallLimit);
        yield return Case("fragments adding up to more than the limit", WsRole.Server, 1009,
            Concat(Frame(0x02, new byte[600], RfcMask), Frame(0x80, new byte[401], RfcMask)), limit: SmallLimit);
        yield return Case("a header promising 2^62 bytes", WsRole.Client, 1009, WsFeed.Bytes("82 7F 40 00 00 00 00 00 00 00"));
    }

    [TestCaseSource(nameof(Violations))]
    public void ViolationsFailWithTheirStatusWhateverTheSplit(bool server, bool deflate, int limit, byte[] wire, string[] expected)
    {
        var events = WsFeed.AllSplitsAgree(() => new WsFrameDecoder(server ? WsRole.Server : WsRole.Client, deflate ? new WsInflater(false) : null, limit), wire);
        Assert.That(events, Is.EqualTo(expected));
    }

    [Test]
    public void AFailedDecoderStaysFailed()
    {
        using var decoder = new WsFrameDecoder(WsRole.Client);
        Assert.That(decoder.Read(Frame(0x83, []), out _), Is.EqualTo(WsDecodeResult.Error));
        Assert.That(decoder.ErrorStatus, Is.EqualTo(1002));
        Assert.That(decoder.ErrorReason, Does.Contain("opcode"));
        Assert.That(decoder.Read(Frame(0x81, Utf8("fine")), out var consumed), Is.EqualTo(WsDecodeResult.Error));
        Assert.That(consumed, Is.Zero);
        Assert.That(decoder.IsFailed, Is.True);
    }

    [Test]
    public void TheDefaultLimitIs16MiB()
    {
        using var decoder = new WsFrameDecoder(WsRole.Client);
        Assert.That(decoder.MaxMessageSize, Is.EqualTo(16 * 1024 * 1024));
        Assert.That(decoder.Read(WsFeed.Bytes("82 7F 00 00 00 00 01 00 00 00"), out _), Is.EqualTo(WsDecodeResult.NeedMoreData), "exactly 16 MiB is allowed");
        using var over = new WsFrameDecoder(WsRole.Client);
        Assert.That(over.Read(WsFeed.Bytes("82 7F 00 00 00 00 01 00 00 01"), out _), Is.EqualTo(WsDecodeResult.Error));
        Assert.That(over.ErrorStatus, Is.EqualTo(1009));
    }

    private static TestCaseData Case(string name, WsRole role, int status, byte[] wire, params string[] before)
        => Case(name, role, status, wire, deflate: false, limit: WsFrameDecoder.DefaultMaxMessageSize, before);

    private static TestCaseData Case(string name, WsRole role, int status, byte[] wire, bool deflate = false, int limit = WsFrameDecoder.DefaultMaxMessageSize, params string[] before)
        => new TestCaseData(role == WsRole.Server, deflate, limit, wire, before.Append($"error:{status}").ToArray()).SetName($"{name} fails with {status}");
}
