using System;
using System.Collections.Generic;
using System.Linq;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;
using static NetCoreServer.Tests.Http2.HpackTesting;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Every example of RFC 7541 Appendix C: the integers of C.1, the representations of C.2, and the three requests
/// (C.3, C.4) and three responses (C.5, C.6) on one connection, with and without Huffman coding. Each block is decoded
/// and checked against the RFC's header list and its dynamic table after the block (entries, sizes, total), and our
/// encoder, given the same fields, must write the RFC's bytes exactly.
/// </summary>
[TestFixture]
public sealed class HpackExampleTests
{
    private static readonly string[] s_request1 = [":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com"];
    private static readonly string[] s_request2 = [.. s_request1, "cache-control: no-cache"];
    private static readonly string[] s_request3 = [":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com", "custom-key: custom-value"];
    private static readonly string[] s_response1 = [":status: 302", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"];
    private static readonly string[] s_response2 = [":status: 307", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:21 GMT", "location: https://www.example.com"];
    private static readonly string[] s_response3 =
    [
        ":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT", "location: https://www.example.com",
        "content-encoding: gzip", "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
    ];

    private static readonly string[] s_requestTable1 = ["[  1] (s =  57) :authority: www.example.com"];
    private static readonly string[] s_requestTable2 = ["[  1] (s =  53) cache-control: no-cache", "[  2] (s =  57) :authority: www.example.com"];
    private static readonly string[] s_requestTable3 = ["[  1] (s =  54) custom-key: custom-value", .. s_requestTable2.Select(Renumber)];
    private static readonly string[] s_responseTable1 =
    [
        "[  1] (s =  63) location: https://www.example.com", "[  2] (s =  65) date: Mon, 21 Oct 2013 20:13:21 GMT",
        "[  3] (s =  52) cache-control: private", "[  4] (s =  42) :status: 302",
    ];
    private static readonly string[] s_responseTable2 = ["[  1] (s =  42) :status: 307", .. s_responseTable1.Take(3).Select(Renumber)];
    private static readonly string[] s_responseTable3 =
    [
        "[  1] (s =  98) set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1",
        "[  2] (s =  52) content-encoding: gzip", "[  3] (s =  65) date: Mon, 21 Oct 2013 20:13:22 GMT",
    ];

    [TestCase(10, 5, "0a", TestName = "C.1.1 encodes 10 with a 5-bit prefix")]
    [TestCase(1337, 5, "1f9a0a", TestName = "C.1.2 encodes 1337 with a 5-bit prefix")]
    [TestCase(42, 8, "2a", TestName = "C.1.3 encodes 42 at an octet boundary")]
    public void IntegerExamplesEncodeAndDecodeAsTheRfcShows(int value, int prefix, string hex)
    {
        var expected = Hex(hex);
        var written = new byte[HpackInteger.MaxLength];
        var length = HpackInteger.Write(written, value, prefix, 0);
        Assert.That(Convert.ToHexString(written, 0, length), Is.EqualTo(Convert.ToHexString(expected)));
        // The bits above the prefix belong to the representation: set them and the value must not change.
        expected[0] |= (byte)~((1 << prefix) - 1 & 0xff);
        var position = 0;
        Assert.That(HpackInteger.TryRead(expected, ref position, prefix, out var read), Is.True);
        Assert.That((read, position), Is.EqualTo((value, expected.Length)));
    }

    [TestCase("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572", "custom-key: custom-header", "[  1] (s =  55) custom-key: custom-header", TestName = "C.2.1 literal with indexing")]
    [TestCase("040c 2f73 616d 706c 652f 7061 7468", ":path: /sample/path", null, TestName = "C.2.2 literal without indexing")]
    [TestCase("1008 7061 7373 776f 7264 0673 6563 7265 74", "password: secret (never)", null, TestName = "C.2.3 literal never indexed")]
    [TestCase("82", ":method: GET", null, TestName = "C.2.4 indexed field")]
    public void RepresentationExamplesDecodeAsTheRfcShows(string hex, string field, string? entry)
    {
        var decoder = new HpackDecoder();
        var sink = new FieldList(markNeverIndexed: true);
        Assert.That(decoder.Decode(Hex(hex), sink), Is.EqualTo(HpackDecodeResult.Ok));
        Assert.That(sink.Fields, Is.EqualTo(new[] { field }));
        Assert.That(Dump(decoder.Table), Is.EqualTo(entry is null ? Array.Empty<string>() : new[] { entry }));
    }

    [Test]
    public void RepresentationExamplesEncodeAsTheRfcShows()
    {
        Assert.That(EncodeOne("custom-key", "custom-header", HpackIndexing.Auto), Is.EqualTo("400A637573746F6D2D6B65790D637573746F6D2D686561646572"), "C.2.1");
        Assert.That(EncodeOne(":path", "/sample/path", HpackIndexing.Auto), Is.EqualTo("040C2F73616D706C652F70617468"), "C.2.2 (:path changes per request: not indexed)");
        Assert.That(EncodeOne("password", "secret", HpackIndexing.Never), Is.EqualTo("100870617373776F726406736563726574"), "C.2.3");
        Assert.That(EncodeOne(":method", "GET", HpackIndexing.Auto), Is.EqualTo("82"), "C.2.4");
    }

    [Test]
    public void RequestExamplesWithoutHuffmanDecodeAndEncodeAsTheRfcShows() => RunConnection(
        tableSize: 4096, huffman: false, store: false,
        ("8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", s_request1, s_requestTable1, 57),
        ("8286 84be 5808 6e6f 2d63 6163 6865", s_request2, s_requestTable2, 110),
        ("8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65", s_request3, s_requestTable3, 164));

    [Test]
    public void RequestExamplesWithHuffmanDecodeAndEncodeAsTheRfcShows() => RunConnection(
        tableSize: 4096, huffman: true, store: false,
        ("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff", s_request1, s_requestTable1, 57),
        ("8286 84be 5886 a8eb 1064 9cbf", s_request2, s_requestTable2, 110),
        ("8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf", s_request3, s_requestTable3, 164));

    [Test]
    public void ResponseExamplesWithoutHuffmanDecodeAndEncodeAsTheRfcShows() => RunConnection(
        tableSize: 256, huffman: false, store: true,
        ("4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768"
            + "7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", s_response1, s_responseTable1, 222),
        ("4803 3330 37c1 c0bf", s_response2, s_responseTable2, 222),
        ("88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153"
            + "444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e"
            + "3d31", s_response3, s_responseTable3, 215));

    [Test]
    public void ResponseExamplesWithHuffmanDecodeAndEncodeAsTheRfcShows() => RunConnection(
        tableSize: 256, huffman: true, store: true,
        ("4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8"
            + "e9ae 82ae 43d3", s_response1, s_responseTable1, 222),
        ("4883 640e ffc1 c0bf", s_response2, s_responseTable2, 222),
        ("88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b"
            + "3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07", s_response3, s_responseTable3, 215));

    // Decodes the blocks in order on one decoder, and encodes the same lists on one encoder. The RFC's examples store
    // every literal: the response ones include set-cookie, which Auto would send never-indexed, so they use Store.
    private static void RunConnection(int tableSize, bool huffman, bool store, params (string Hex, string[] Fields, string[] Table, int Size)[] blocks)
    {
        var decoder = new HpackDecoder(maxTableSizeLimit: tableSize);
        var encoder = new HpackEncoder(tableSizeCap: tableSize) { UseHuffman = huffman };
        // The RFC's connection starts at this size already; the size update our encoder owes for it is not in the examples.
        encoder.BeginBlock(new System.Buffers.ArrayBufferWriter<byte>());
        for (var i = 0; i < blocks.Length; i++)
        {
            var (hex, fields, table, size) = blocks[i];
            var (result, decoded) = Decode(decoder, Hex(hex));
            Assert.That(result, Is.EqualTo(HpackDecodeResult.Ok), $"block {i + 1}: {decoder.ErrorReason}");
            Assert.That(decoded, Is.EqualTo(fields), $"block {i + 1}: decoded header list");
            Assert.That(Dump(decoder.Table), Is.EqualTo(table), $"block {i + 1}: decoder's dynamic table");
            Assert.That(decoder.Table.Size, Is.EqualTo(size), $"block {i + 1}: decoder's table size");

            var pairs = fields.Select(f => f.Split(": ", 2)).Select(p => (p[0], p[1]));
            var encoded = Encode(encoder, pairs, store ? HpackIndexing.Store : HpackIndexing.Auto);
            Assert.That(Convert.ToHexString(encoded), Is.EqualTo(Convert.ToHexString(Hex(hex))), $"block {i + 1}: encoded bytes");
            Assert.That(Dump(encoder.Table), Is.EqualTo(table), $"block {i + 1}: encoder's dynamic table");
        }
    }

    private static string EncodeOne(string name, string value, HpackIndexing indexing)
        => Convert.ToHexString(Encode(new HpackEncoder { UseHuffman = false }, [(name, value)], indexing));

    private static string Renumber(string entry)
    {
        var index = int.Parse(entry[1..4].Trim());
        return $"[{index + 1,3}]{entry[5..]}";
    }
}
