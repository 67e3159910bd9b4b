using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Linq;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.WebSockets;
using static NetCoreServer.Tests.WebSockets.WsTestFrames;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// permessage-deflate (RFC 7692): the server's choice among offers and the parameters it answers with, the §7.2.3
/// examples byte for byte (decoded whatever the split, and produced by the compressor), round trips both ways with and
/// without context takeover, and a deflate bomb refused with 1009 in bounded memory.
/// </summary>
[TestFixture]
public sealed class WsDeflateTests
{
    private static readonly WsDeflateOptions s_defaults = new();

    [TestCase("permessage-deflate", "permessage-deflate", TestName = "a bare offer is answered bare")]
    [TestCase("permessage-deflate; client_max_window_bits", "permessage-deflate", TestName = "client_max_window_bits without a value needs no answer")]
    [TestCase("permessage-deflate; client_max_window_bits=9", "permessage-deflate", TestName = "a client window limit needs no answer")]
    [TestCase("permessage-deflate; server_no_context_takeover; client_no_context_takeover", "permessage-deflate; server_no_context_takeover; client_no_context_takeover", TestName = "both no-context-takeover parameters are echoed")]
    [TestCase("permessage-deflate; server_max_window_bits=15", "permessage-deflate; server_max_window_bits=15", TestName = "a 15-bit server window is echoed")]
    [TestCase("permessage-deflate; server_max_window_bits=\"10\"", "permessage-deflate; server_max_window_bits=10", TestName = "a quoted window size is read")]
    [TestCase("permessage-deflate; unknown=1, permessage-deflate; server_no_context_takeover", "permessage-deflate; server_no_context_takeover", TestName = "an offer with an unknown parameter is declined for the next")]
    [TestCase("permessage-deflate; server_max_window_bits, permessage-deflate", "permessage-deflate", TestName = "server_max_window_bits without a value is declined")]
    [TestCase("permessage-deflate; server_max_window_bits=7, permessage-deflate", "permessage-deflate", TestName = "a window of 7 bits is declined")]
    [TestCase("permessage-deflate; server_max_window_bits=16, permessage-deflate", "permessage-deflate", TestName = "a window of 16 bits is declined")]
    [TestCase("permessage-deflate; server_max_window_bits=010, permessage-deflate", "permessage-deflate", TestName = "a window with a leading zero is declined")]
    [TestCase("permessage-deflate; client_max_window_bits=x, permessage-deflate", "permessage-deflate", TestName = "a client window that is not a number is declined")]
    [TestCase("permessage-deflate; server_no_context_takeover=1, permessage-deflate", "permessage-deflate", TestName = "a value on a flag is declined")]
    [TestCase("permessage-deflate; client_no_context_takeover; client_no_context_takeover, permessage-deflate", "permessage-deflate", TestName = "a repeated parameter is declined")]
    [TestCase("x-webkit-deflate-frame, permessage-deflate", "permessage-deflate", TestName = "other extensions are passed over")]
    [TestCase("x-webkit-deflate-frame", null, TestName = "no offer of permessage-deflate means none")]
    [TestCase("permessage-deflate; mem_level=8", null, TestName = "no acceptable offer means none")]
    public void TheServerAnswersTheFirstAcceptableOffer(string offers, string? answer)
    {
        var list = WsExtension.ParseList(offers);
        Assert.That(list, Is.Not.Null);
        var accepted = WsDeflateNegotiation.TrySelect(list!, s_defaults, out var parameters);
        Assert.That(accepted ? parameters.ToHeaderValue() : null, Is.EqualTo(answer));
    }

    [Test]
    public void AServerWindowUnder15BitsIsHonouredBySendingUncompressed()
    {
        Assert.That(WsDeflateNegotiation.TrySelect(WsExtension.ParseList("permessage-deflate; server_max_window_bits=10")!, s_defaults, out var parameters), Is.True);
        Assert.That(parameters.ToHeaderValue(), Is.EqualTo("permessage-deflate; server_max_window_bits=10"));
        Assert.That(parameters.CreateDeflater(WsRole.Server), Is.Null, ".NET's compressor cannot shrink its window");
        using var inflater = parameters.CreateInflater(WsRole.Server);
        Assert.That(inflater.NoContextTakeover, Is.False);
    }

    [Test]
    public void ServerOptionsAddNoContextTakeoverUnasked()
    {
        var options = new WsDeflateOptions { ServerNoContextTakeover = true, ClientNoContextTakeover = true };
        Assert.That(WsDeflateNegotiation.TrySelect(WsExtension.ParseList("permessage-deflate")!, options, out var parameters), Is.True);
        Assert.That(parameters.ToHeaderValue(), Is.EqualTo("permessage-deflate; server_no_context_takeover; client_no_context_takeover"));
        Assert.That(WsDeflateNegotiation.BuildOffer(options), Is.EqualTo("permessage-deflate; server_no_context_takeover; client_no_context_takeover"));
    }

    private static IEnumerable<TestCaseData> RfcExamples()
    {
        // RFC 7692 §7.2.3.1: a message in one compressed frame, then in two fragments.
        yield return Example("7.2.3.1 one frame", "c1 07 f2 48 cd c9 c9 07 00", "text:Hello");
        yield return Example("7.2.3.1 two fragments", "41 03 f2 48 cd 80 04 c9 c9 07 00", "text:Hello");
        // §7.2.3.2: the second message refers back to the first (context takeover).
        yield return Example("7.2.3.2 sharing the window", "c1 07 f2 48 cd c9 c9 07 00 c1 05 f2 00 11 00 00", "text:Hello", "text:Hello");
        // §7.2.3.3: a stored (uncompressed) DEFLATE block.
        yield return Example("7.2.3.3 a block with no compression", "c1 0b 00 05 00 fa ff 48 65 6c 6c 6f 00", "text:Hello");
        // §7.2.3.4: BFINAL set; the next message then starts a new stream.
        yield return Example("7.2.3.4 BFINAL set", "c1 08 f3 48 cd c9 c9 07 00 00 c1 07 f2 48 cd c9 c9 07 00", "text:Hello", "text:Hello");
        // §7.2.3.5: two DEFLATE blocks in one message.
        yield return Example("7.2.3.5 two blocks", "c1 0d f2 48 05 00 00 00 ff ff ca c9 c9 07 00", "text:Hello");
        // §7.2.3.6: an empty message.
        yield return Example("7.2.3.6 an empty fragment", "c1 01 00", "text:");
        yield return Example("an uncompressed message between compressed ones", "c1 07 f2 48 cd c9 c9 07 00 81 02 68 69 c1 05 f2 00 11 00 00", "text:Hello", "text:hi", "text:Hello");
        yield return Example("a ping between compressed fragments", "41 03 f2 48 cd 89 01 70 80 04 c9 c9 07 00", "ping:p", "text:Hello");
    }

    [TestCaseSource(nameof(RfcExamples))]
    public void TheRfcExamplesDecodeWhateverTheSplit(byte[] wire, string[] expected)
    {
        var events = WsFeed.AllSplitsAgree(() => new WsFrameDecoder(WsRole.Client, new WsInflater(noContextTakeover: false)), wire);
        Assert.That(events, Is.EqualTo(expected));
    }

    [Test]
    public void TheCompressorProducesTheRfcBytes()
    {
        using var shared = new WsDeflater(noContextTakeover: false);
        Assert.That(Convert.ToHexString(shared.Compress("Hello"u8)), Is.EqualTo("F248CDC9C90700"));
        Assert.That(Convert.ToHexString(shared.Compress("Hello"u8)), Is.EqualTo("F200110000"), "7.2.3.2: the second refers back");
        using var fresh = new WsDeflater(noContextTakeover: true);
        Assert.That(Convert.ToHexString(fresh.Compress("Hello"u8)), Is.EqualTo("F248CDC9C90700"));
        Assert.That(Convert.ToHexString(fresh.Compress("Hello"u8)), Is.EqualTo("F248CDC9C90700"), "no context takeover: the same bytes again");
        Assert.That(Convert.ToHexString(fresh.Compress([])), Is.EqualTo("00"), "7.2.3.6");
    }

    [TestCase(false, false, TestName = "round trip server to client with context takeover")]
    [TestCase(false, true, TestName = "round trip server to client without context takeover")]
    [TestCase(true, false, TestName = "round trip client to server with context takeover")]
    [TestCase(true, true, TestName = "round trip client to server without context takeover")]
    public void MessagesRoundTrip(bool fromClient, bool noContextTakeover)
    {
        var parameters = new WsDeflateParameters(noContextTakeover, noContextTakeover, 0, 0);
        var sender = fromClient ? WsRole.Client : WsRole.Server;
        var receiver = fromClient ? WsRole.Server : WsRole.Client;
        using var writer = new WsFrameWriter(sender, parameters.CreateDeflater(sender));
        var random = new Random(7692);
        var wire = new MemoryStream();
        var expected = new List<string>();
        long plain = 0;
        for (var i = 0; i < 200; i++)
        {
            // Repetitive text (compresses and refers back) and random binary (does not), of many sizes.
            var text = i % 3 != 2;
            var length = random.Next(0, i % 10 == 0 ? 200_000 : 2000);
            var payload = text
                ? Encoding.UTF8.GetBytes(string.Concat(Enumerable.Range(0, length / 5 + 1).Select(k => $"msg{k % 50}é "))[..length])
                : RandomBytes(random, length);
            var frame = writer.Prepare(text ? WsOpcode.Text : WsOpcode.Binary, payload);
            var bytes = new byte[frame.Length];
            frame.CopyTo(bytes);
            wire.Write(bytes);
            plain += payload.Length;
            expected.Add(text ? "text:" + Encoding.UTF8.GetString(payload) : $"binary:{payload.Length}:{Describe(payload)}");
        }
        TestContext.Out.WriteLine($"{plain} bytes of payload went out as {wire.Length} bytes of frames");
        Assert.That(wire.Length, Is.LessThan(plain), "compression happened");
        using var decoder = new WsFrameDecoder(receiver, parameters.CreateInflater(receiver));
        var bytesOnWire = wire.ToArray();
        var cuts = new List<int>();
        for (var at = random.Next(1, 3000); at < bytesOnWire.Length; at += random.Next(1, 3000))
            cuts.Add(at);
        Assert.That(WsFeed.Run(decoder, bytesOnWire, cuts), Is.EqualTo(expected));
    }

    [Test]
    public void ADeflateBombIsRefusedWith1009InBoundedMemory()
    {
        // 1 GiB of zeros deflates to about 1 MiB: sent as one compressed client frame.
        var bomb = new MemoryStream();
        using (var deflate = new DeflateStream(bomb, CompressionLevel.Optimal, leaveOpen: true))
        {
            var zeros = new byte[1 << 20];
            for (var i = 0; i < 1024; i++)
                deflate.Write(zeros);
            deflate.Flush();
        }
        var compressed = bomb.ToArray();
        TestContext.Out.WriteLine($"1 GiB deflated to {compressed.Length} bytes");
        var wire = Frame(0xC2, compressed, RfcMask);

        foreach (var limit in new[] { 1 << 20, WsFrameDecoder.DefaultMaxMessageSize })
        {
            using var decoder = new WsFrameDecoder(WsRole.Server, new WsInflater(noContextTakeover: false), limit);
            var before = GC.GetAllocatedBytesForCurrentThread();
            var consumedTotal = 0;
            WsDecodeResult result;
            // Fed in 64 KiB reads, as a socket would deliver it.
            do
            {
                var end = Math.Min(wire.Length, consumedTotal + 65536);
                result = decoder.Read(wire.AsSpan(consumedTotal, end - consumedTotal), out var consumed);
                consumedTotal += consumed;
            }
            while (result == WsDecodeResult.NeedMoreData && consumedTotal < wire.Length);
            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            TestContext.Out.WriteLine($"limit {limit >> 20} MiB: refused after {consumedTotal} of {wire.Length} bytes, {allocated >> 10} KiB allocated");
            Assert.That(result, Is.EqualTo(WsDecodeResult.Error));
            Assert.That(decoder.ErrorStatus, Is.EqualTo(1009));
            Assert.That(consumedTotal, Is.LessThan(wire.Length / 4), "refused as soon as the output passed the limit");
            Assert.That(allocated, Is.LessThan(2L * limit + (1 << 20)), "memory stays within the limit (buffers doubling up to it)");
        }
    }

    [Test]
    public void WithoutContextTakeoverEveryMessageIsCompressedAfresh()
    {
        var parameters = new WsDeflateParameters(true, false, 0, 0);
        using var writer = new WsFrameWriter(WsRole.Server, parameters.CreateDeflater(WsRole.Server));
        using var decoder = new WsFrameDecoder(WsRole.Client, parameters.CreateInflater(WsRole.Client));
        string? first = null;
        for (var i = 0; i < 3; i++)
        {
            var frame = writer.Prepare(WsOpcode.Text, "Hello Hello Hello"u8);
            var bytes = new byte[frame.Length];
            frame.CopyTo(bytes);
            Assert.That(bytes[0], Is.EqualTo(0xC1), "FIN, RSV1, text");
            first ??= Convert.ToHexString(bytes);
            Assert.That(Convert.ToHexString(bytes), Is.EqualTo(first), "the same message compresses to the same bytes each time");
            Assert.That(WsFeed.Run(decoder, bytes, []), Is.EqualTo(new[] { "text:Hello Hello Hello" }));
        }
    }

    private static TestCaseData Example(string name, string hex, params string[] expected)
        => new TestCaseData(WsFeed.Bytes(hex), expected).SetName($"RFC 7692 {name}");

    private static byte[] RandomBytes(Random random, int length)
    {
        var bytes = new byte[length];
        random.NextBytes(bytes);
        return bytes;
    }

    private static string Describe(byte[] bytes)
    {
        if (bytes.Length <= 32)
            return Convert.ToHexString(bytes);
        var hash = new HashCode();
        hash.AddBytes(bytes);
        return "#" + hash.ToHashCode().ToString("x8");
    }
}
