using System;
using System.Linq;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.WebSockets;
using static NetCoreServer.Tests.WebSockets.WsTestFrames;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// Frames on the way out: the RFC 6455 §5.7 examples byte for byte, the three length encodings at their boundaries,
/// masking (fresh keys, any offset, any length), close payloads, and what the writer hands to a session.
/// </summary>
[TestFixture]
public sealed class WsFrameEncoderTests
{
    [Test]
    public void AServerTextFrameIsTheRfcExample()
    {
        var frame = new byte[16];
        var size = WsFrameEncoder.WriteServerFrame(frame, WsOpcode.Text, "Hello"u8);
        Assert.That(Convert.ToHexString(frame, 0, size), Is.EqualTo("810548656C6C6F"));
    }

    [Test]
    public void AMaskedTextFrameIsTheRfcExample()
    {
        var key = WsMask.ReadKey(RfcMask);
        var frame = new byte[16];
        var head = WsFrameEncoder.WriteHeader(frame, WsOpcode.Text, 5, masked: true, maskKey: key);
        WsMask.Apply("Hello"u8, frame.AsSpan(head), key);
        Assert.That(Convert.ToHexString(frame, 0, head + 5), Is.EqualTo("818537FA213D7F9F4D5158"));
    }

    [Test]
    public void FragmentsPingAndPongAreTheRfcExamples()
    {
        var buffer = new byte[16];
        Assert.That(Hex(buffer, WsFrameEncoder.WriteHeader(buffer, WsOpcode.Text, 3, fin: false)), Is.EqualTo("0103"));
        Assert.That(Hex(buffer, WsFrameEncoder.WriteHeader(buffer, WsOpcode.Continuation, 2)), Is.EqualTo("8002"));
        Assert.That(Hex(buffer, WsFrameEncoder.WriteServerFrame(buffer, WsOpcode.Ping, "Hello"u8)), Is.EqualTo("890548656C6C6F"));
        var key = WsMask.ReadKey(RfcMask);
        var head = WsFrameEncoder.WriteHeader(buffer, WsOpcode.Pong, 5, masked: true, maskKey: key);
        WsMask.Apply("Hello"u8, buffer.AsSpan(head), key);
        Assert.That(Hex(buffer, head + 5), Is.EqualTo("8A8537FA213D7F9F4D5158"));
    }

    [TestCase(0, "8200")]
    [TestCase(125, "827D")]
    [TestCase(126, "827E007E")]
    [TestCase(256, "827E0100")]
    [TestCase(65535, "827EFFFF")]
    [TestCase(65536, "827F0000000000010000")]
    [TestCase(int.MaxValue, "827F000000007FFFFFFF")]
    public void LengthsUseTheShortestEncoding(long length, string header)
    {
        var buffer = new byte[WsFrameEncoder.MaxHeaderSize];
        var size = WsFrameEncoder.WriteHeader(buffer, WsOpcode.Binary, length);
        Assert.That(Hex(buffer, size), Is.EqualTo(header));
        Assert.That(WsFrameEncoder.HeaderSize(length, masked: false), Is.EqualTo(size));
        Assert.That(WsFrameEncoder.HeaderSize(length, masked: true), Is.EqualTo(size + 4));
    }

    [Test]
    public void TheRfc256ByteAnd64KiBExamplesRoundTrip()
    {
        foreach (var length in new[] { 256, 65536 })
        {
            var payload = Enumerable.Range(0, length).Select(i => (byte)(i * 31)).ToArray();
            using var frame = WsFrameEncoder.RentServerFrame(WsOpcode.Binary, payload);
            Assert.That(frame.Span.ToArray(), Is.EqualTo(Frame(0x82, payload)), $"{length} bytes");
        }
    }

    [Test]
    public void ControlFramesOver125BytesOrFragmentedAreRefused()
    {
        var buffer = new byte[WsFrameEncoder.MaxHeaderSize];
        Assert.Throws<ArgumentException>(() => WsFrameEncoder.WriteHeader(buffer, WsOpcode.Ping, 126));
        Assert.Throws<ArgumentException>(() => WsFrameEncoder.WriteHeader(buffer, WsOpcode.Close, 2, fin: false));
        Assert.Throws<ArgumentException>(() => WsFrameEncoder.WriteHeader(buffer, WsOpcode.Pong, 1, compressed: true));
        Assert.That(WsFrameEncoder.WriteHeader(buffer, WsOpcode.Ping, 125), Is.EqualTo(2));
    }

    [Test]
    public void MaskingMatchesTheDefinitionAtEveryLengthAndOffset()
    {
        var random = new Random(6455);
        var source = new byte[300];
        random.NextBytes(source);
        var maskBytes = new byte[4];
        for (var trial = 0; trial < 50; trial++)
        {
            random.NextBytes(maskBytes);
            var key = WsMask.ReadKey(maskBytes);
            var length = random.Next(0, 300);
            var offset = random.Next(0, 7);
            var masked = new byte[length];
            WsMask.Apply(source.AsSpan(0, length), masked, key, offset);
            for (var i = 0; i < length; i++)
                Assert.That(masked[i], Is.EqualTo((byte)(source[i] ^ maskBytes[(i + offset) % 4])), $"byte {i} of {length} at offset {offset}");
            // In place, and masking twice restores the original.
            WsMask.Apply(masked, masked, key, offset);
            Assert.That(masked, Is.EqualTo(source.AsSpan(0, length).ToArray()));
        }
    }

    [Test]
    public void EachClientFrameGetsAFreshKey()
    {
        using var writer = new WsFrameWriter(WsRole.Client);
        var keys = Enumerable.Range(0, 1000).Select(_ => writer.Prepare(WsOpcode.Binary, [1]).MaskKey).ToHashSet();
        Assert.That(keys.Count, Is.GreaterThan(995), "keys come from the cryptographic generator");
    }

    [Test]
    public void AClientFrameIsMaskedWhileItIsCopiedAndDecodesBack()
    {
        using var writer = new WsFrameWriter(WsRole.Client);
        var payload = Encoding.UTF8.GetBytes(new string('x', 1000) + " ✓");
        var frame = writer.Prepare(WsOpcode.Text, payload);
        Assert.That(frame.IsMasked, Is.True);
        Assert.That(frame.Body.SequenceEqual(payload), Is.True, "the payload is not copied before the final copy");
        var wire = new byte[frame.Length];
        frame.CopyTo(wire);
        Assert.That(wire[1] & 0x80, Is.EqualTo(0x80), "the mask bit is set");
        using var decoder = new WsFrameDecoder(WsRole.Server);
        Assert.That(WsFeed.Run(decoder, wire, []), Is.EqualTo(new[] { "text:" + Encoding.UTF8.GetString(payload) }));
    }

    [Test]
    public void AServerFrameLeavesThePayloadAsItIs()
    {
        using var writer = new WsFrameWriter(WsRole.Server);
        var payload = new byte[70000];
        var frame = writer.Prepare(WsOpcode.Binary, payload);
        Assert.That(frame.IsMasked, Is.False);
        Assert.That(Hex(frame.Head.ToArray(), frame.Head.Length), Is.EqualTo("827F0000000000011170"));
        Assert.That(frame.Body.Length, Is.EqualTo(70000));
    }

    [TestCase(1000, "bye", "03E8627965")]
    [TestCase(4999, "", "1387")]
    [TestCase(1005, "ignored", "")]
    [TestCase(1006, "ignored", "")]
    [TestCase(1015, "ignored", "")]
    [TestCase(1004, "ignored", "")]
    [TestCase(999, "ignored", "")]
    [TestCase(5000, "ignored", "")]
    public void ClosePayloadsNeverCarryReservedStatuses(int status, string reason, string expected)
    {
        var payload = new byte[WsFrameEncoder.MaxControlPayload];
        var size = WsFrameEncoder.WriteClosePayload(payload, status, Encoding.UTF8.GetBytes(reason));
        Assert.That(Hex(payload, size), Is.EqualTo(expected));
    }

    [Test]
    public void ALongCloseReasonIsCutAtACharacterBoundary()
    {
        var payload = new byte[WsFrameEncoder.MaxControlPayload];
        // Two ASCII bytes, then two-byte characters: byte 123 is the second half of the 61st, which is dropped whole.
        var reason = Encoding.UTF8.GetBytes("ab" + new string('é', 70));
        var size = WsFrameEncoder.WriteClosePayload(payload, 1000, reason);
        Assert.That(size, Is.EqualTo(2 + 2 + 2 * 60));
        Assert.That(System.Text.Unicode.Utf8.IsValid(payload.AsSpan(2, size - 2)), Is.True);
        Assert.That(WsFrameEncoder.WriteClosePayload(payload, 1000, [0xC3, 0x28]), Is.EqualTo(2), "an invalid reason is dropped");
    }

    [Test]
    public void TheWriterPreparesCloseFramesThatTheDecoderAccepts()
    {
        using var writer = new WsFrameWriter(WsRole.Server);
        var frame = writer.PrepareClose(1001, "going away"u8);
        var wire = new byte[frame.Length];
        frame.CopyTo(wire);
        using var decoder = new WsFrameDecoder(WsRole.Client);
        Assert.That(WsFeed.Run(decoder, wire, []), Is.EqualTo(new[] { "close:1001:going away" }));
        frame = writer.PrepareClose(1006, "abnormal"u8);
        Assert.That(Hex(frame.Head.ToArray(), frame.Head.Length), Is.EqualTo("8800"), "1006 goes out as an empty close");
    }

    private static string Hex(byte[] bytes, int length) => Convert.ToHexString(bytes, 0, length);
}
