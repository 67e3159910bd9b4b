using System;
using System.Collections.Generic;
using System.Linq;
using NetCoreServer.Protocols.Http;
using static NetCoreServer.Tests.WebSockets.Live.WsCase;
using static NetCoreServer.Tests.WebSockets.Live.WsExpect;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>
/// The cases, by area as the Autobahn suite groups them: framing, ping/pong, reserved bits, opcodes, fragmentation,
/// UTF-8, close codes and reasons, limits, compression. The server echoes text as text.
/// </summary>
internal static class WsCaseTable
{
    private static readonly byte[] Euro = WsTestFrames.Utf8("€"); // E2 82 AC

    public static IEnumerable<WsCase> All()
    {
        // Framing: each length encoding, including a longer encoding than needed (allowed for a receiver).
        yield return new("1.1 an empty text message is echoed", [Text("")], TextFrame(""));
        yield return new("1.2 a 125-byte text message (7-bit length) is echoed", [Text(new string('x', 125))], TextFrame(new string('x', 125)));
        yield return new("1.3 a 126-byte text message (16-bit length) is echoed", [Text(new string('x', 126))], TextFrame(new string('x', 126)));
        yield return new("1.4 a 65536-byte text message (64-bit length) is echoed", [Text(new string('x', 65536))], TextFrame(new string('x', 65536)));
        yield return new("1.5 a short message with a 64-bit length field is accepted", [F(0x81, WsTestFrames.Utf8("wide"), lengthBytes: 8)], TextFrame("wide"));
        yield return new("1.6 a binary message is echoed as text by the test session, whole", [F(0x82, WsTestFrames.Utf8("bin"))], TextFrame("bin"));
        yield return new("1.7 frames arriving in one read are each handled", [Text("a"), Text("b"), Text("c")], TextFrame("a"), TextFrame("b"), TextFrame("c")) { OneWrite = true };

        // Ping and pong.
        yield return new("2.1 a ping is answered with a pong of the same payload", [F(0x89, WsTestFrames.Utf8("hello"))], PongFrame(WsTestFrames.Utf8("hello")));
        yield return new("2.2 an empty ping gets an empty pong", [F(0x89, [])], PongFrame([]));
        yield return new("2.3 a 125-byte ping gets a 125-byte pong", [F(0x89, Repeat(0xFE, 125))], PongFrame(Repeat(0xFE, 125)));
        yield return new("2.4 a ping of 126 bytes fails with 1002", [F(0x89, Repeat(0xFE, 126))], FailWith(1002));
        yield return new("2.5 a fragmented ping fails with 1002", [F(0x09, WsTestFrames.Utf8("x"))], FailWith(1002));
        yield return new("2.6 an unsolicited pong is ignored", [F(0x8A, WsTestFrames.Utf8("beat")), Text("after")], TextFrame("after"));
        yield return new("2.7 ten pings in one write get ten pongs in order",
            Enumerable.Range(0, 10).Select(i => F(0x89, [(byte)i])).ToArray(),
            Enumerable.Range(0, 10).Select(i => PongFrame([(byte)i])).ToArray()) { OneWrite = true };

        // Reserved bits.
        yield return new("3.1 RSV1 without permessage-deflate fails with 1002", [F(0xC1, WsTestFrames.Utf8("x"))], FailWith(1002));
        yield return new("3.2 RSV2 fails with 1002", [F(0xA1, WsTestFrames.Utf8("x"))], FailWith(1002));
        yield return new("3.3 RSV3 fails with 1002", [F(0x91, WsTestFrames.Utf8("x"))], FailWith(1002));
        yield return new("3.4 RSV bits on a ping fail with 1002 after the echo of what came before", [Text("first"), F(0xF9, [])], TextFrame("first"), FailWith(1002));

        // Opcodes.
        foreach (var opcode in new[] { 3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF })
            yield return new($"4.{opcode:X} reserved opcode {opcode:X} fails with 1002", [F(0x80 | opcode, [])], FailWith(1002));

        // Fragmentation.
        yield return new("5.1 a text message in three fragments is echoed whole", [Text("fra", fin: false), Cont(WsTestFrames.Utf8("gme"), false), Cont(WsTestFrames.Utf8("nts"), true)], TextFrame("fragments"));
        yield return new("5.2 a ping between fragments is answered at once and the message stays whole",
            [Text("one ", fin: false), F(0x89, WsTestFrames.Utf8("p")), Cont(WsTestFrames.Utf8("two"), true)], PongFrame(WsTestFrames.Utf8("p")), TextFrame("one two"));
        yield return new("5.3 empty fragments are allowed", [Text("", fin: false), Cont([], false), Cont(WsTestFrames.Utf8("end"), true)], TextFrame("end"));
        yield return new("5.4 a continuation without a message fails with 1002", [Cont(WsTestFrames.Utf8("x"), true)], FailWith(1002));
        yield return new("5.5 a new message inside a fragmented one fails with 1002", [Text("a", fin: false), Text("b")], FailWith(1002));
        yield return new("5.6 fragments in one write are reassembled", [Text("a", fin: false), Cont(WsTestFrames.Utf8("b"), false), Cont(WsTestFrames.Utf8("c"), true)], TextFrame("abc")) { OneWrite = true };

        // UTF-8.
        yield return new("6.1 multi-byte text is echoed", [Text("κόσμε € 𝄞")], TextFrame("κόσμε € 𝄞"));
        yield return new("6.2 a code point split across fragments is accepted", [F(0x01, Euro[..1]), Cont(Euro[1..], true)], TextFrame("€"));
        yield return new("6.3 a code point split in three fragments is accepted", [F(0x01, Euro[..1]), Cont(Euro[1..2], false), Cont(Euro[2..], true)], TextFrame("€"));
        yield return new("6.4 invalid UTF-8 fails with 1007", [F(0x81, Bytes(0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5, 0xED, 0xA0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64))], FailWith(1007));
        yield return new("6.5 invalid UTF-8 in the first fragment fails at once, before the message ends", [F(0x01, Bytes(0xC0, 0xAF))], FailWith(1007));
        yield return new("6.6 a sequence cut off at the message's end fails with 1007", [F(0x01, Euro[..2]), Cont([], true)], FailWith(1007));
        yield return new("6.7 an overlong encoding fails with 1007", [F(0x81, Bytes(0xE0, 0x80, 0xAF))], FailWith(1007));
        yield return new("6.8 a close reason that is not UTF-8 fails with 1007", [F(0x88, WsTestFrames.ClosePayload(1000, Bytes(0xFF)))], FailWith(1007));

        // Close codes and reasons.
        yield return new("7.1 a close with a status and reason is echoed", [Close(1000, "done")], new WsExpect(0x8, WsTestFrames.ClosePayload(1000, WsTestFrames.Utf8("done")), 1000));
        yield return new("7.2 an empty close is answered with an empty close", [F(0x88, [])], CloseFrame(1005));
        yield return new("7.3 a close payload of one byte fails with 1002", [F(0x88, Bytes(0x03))], FailWith(1002));
        yield return new("7.4 a 123-byte reason is echoed", [Close(1000, new string('r', 123))], new WsExpect(0x8, WsTestFrames.ClosePayload(1000, WsTestFrames.Utf8(new string('r', 123))), 1000));
        yield return new("7.5 frames after a close are ignored", [Close(1000), Text("late")], CloseFrame(1000)) { OneWrite = true };
        foreach (var status in new[] { 1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999 })
            yield return new($"7.6 valid status {status} is echoed", [Close(status)], CloseFrame(status));
        foreach (var status in new[] { 0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535 })
            yield return new($"7.7 invalid status {status} fails with 1002", [Close(status)], FailWith(1002));

        // Limits (the server's limit is 64 KiB here).
        yield return new("9.1 a message at the limit is accepted", [F(0x82, Repeat(0x61, 64 * 1024))], TextFrame(new string('a', 64 * 1024)));
        yield return new("9.2 a frame announcing more than the limit fails with 1009 at its header", [F(0x82, Repeat(0x61, 64 * 1024 + 1))], FailWith(1009));
        yield return new("9.3 fragments adding up past the limit fail with 1009",
            [F(0x02, Repeat(0x61, 40 * 1024)), Cont(Repeat(0x61, 40 * 1024), true)], FailWith(1009));
        yield return new("9.4 an unmasked client frame fails with 1002", [WsTestFrames.Frame(0x81, WsTestFrames.Utf8("x"))], FailWith(1002));

        // Compression (permessage-deflate negotiated for these cases).
        yield return new("12.1 a compressed message is inflated and the echo comes compressed", [F(0xC1, Compress(WsTestFrames.Utf8(new string('z', 1000))))], CompressedText(new string('z', 1000))) { Deflate = true };
        yield return new("12.2 compressed and plain messages mix", [F(0xC1, Compress(WsTestFrames.Utf8("hello hello hello"))), Text("plain")], CompressedText("hello hello hello"), CompressedText("plain")) { Deflate = true };
        yield return new("12.3 a fragmented compressed message is inflated whole",
            [F(0x41, Compress(WsTestFrames.Utf8("abcabcabcabc"))[..3]), Cont(Compress(WsTestFrames.Utf8("abcabcabcabc"))[3..], true)], CompressedText("abcabcabcabc")) { Deflate = true };
        yield return new("12.4 RSV1 on a continuation fails with 1002", [F(0x41, Compress(WsTestFrames.Utf8("ab"))), F(0xC0, [])], FailWith(1002)) { Deflate = true };
        yield return new("12.5 a deflate bomb inflating past the limit fails with 1009", [F(0xC2, Compress(Repeat(0, 1024 * 1024)))], FailWith(1009)) { Deflate = true };
        yield return new("12.6 data that does not inflate fails with 1007", [F(0xC1, Bytes(0xFF, 0xFF, 0xFF, 0xFF))], FailWith(1007)) { Deflate = true };
    }
}
