using System;
using System.Buffers;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using FsCheck;
using FsCheck.Fluent;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;
using static NetCoreServer.Tests.Http2.HpackTesting;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// FsCheck properties: any header lists, encoded block after block on one connection (so the dynamic table fills,
/// evicts and is referenced), with the peer's table size changing between blocks, decode to the same lists; and the
/// encoder's indexing choices are the ones it documents.
/// </summary>
[TestFixture]
public sealed class HpackRoundTripTests
{
    private static readonly Config Runs = Config.QuickThrowOnFailure.WithMaxTest(300);

    private static readonly string[] s_names =
    [
        ":method", ":path", ":status", "content-type", "content-length", "cache-control", "date", "server", "x-request-id",
        "authorization", "cookie", "set-cookie", "etag", "accept-encoding", "user-agent", "x-custom",
    ];

    [Test]
    public void HeaderListsOnOneConnectionDecodeToWhatWasEncoded()
        => Prop.ForAll<(int Name, string Value, int Indexing)[][], int[]>((blocks, sizes) =>
        {
            var encoder = new HpackEncoder();
            var decoder = new HpackDecoder();
            for (var b = 0; b < (blocks ?? []).Length; b++)
            {
                // The peer's SETTINGS_HEADER_TABLE_SIZE changes now and then: 0, small, or back to the default.
                if (sizes is { Length: > 0 } && b % 3 == 2)
                    encoder.SetPeerTableSizeLimit(Math.Abs(sizes[b % sizes.Length] % 3) switch { 0 => 0, 1 => 200, _ => 4096 });
                // Compared as bytes: a generated string may not survive UTF-8, and the codec works on bytes anyway.
                var fields = (blocks![b] ?? []).Select(f => (Name: NameOf(f.Name), Value: Encoding.UTF8.GetBytes(f.Value ?? ""), Indexing: (HpackIndexing)Math.Abs(f.Indexing % 4))).ToList();
                var output = new ArrayBufferWriter<byte>();
                encoder.BeginBlock(output);
                foreach (var (name, value, indexing) in fields)
                    encoder.Encode(Encoding.ASCII.GetBytes(name), value, output, indexing);
                var sink = new HexFields();
                var result = decoder.Decode(output.WrittenSpan, sink);
                if (result != HpackDecodeResult.Ok)
                    return false;
                if (!sink.Fields.SequenceEqual(fields.Select(f => (f.Name, Convert.ToHexString(f.Value)))))
                    return false;
                if (decoder.Table.Size != encoder.Table.Size || decoder.Table.Count != encoder.Table.Count)
                    return false;
            }
            return true;
        }).Check(Runs);

    [Test]
    public void CredentialsAreSentNeverIndexedAndNotStored()
    {
        var encoder = new HpackEncoder();
        var decoder = new HpackDecoder();
        var block = Encode(encoder, [("authorization", "Bearer secret"), ("cookie", "a=b"), ("set-cookie", "c=d")]);
        var sink = new FieldList(markNeverIndexed: true);
        Assert.That(decoder.Decode(block, sink), Is.EqualTo(HpackDecodeResult.Ok));
        Assert.That(sink.Fields, Is.EqualTo(new[] { "authorization: Bearer secret (never)", "cookie: a=b (never)", "set-cookie: c=d (never)" }));
        Assert.That((encoder.Table.Count, decoder.Table.Count), Is.EqualTo((0, 0)));
    }

    [Test]
    public void RepeatedFieldsAreStoredOnceAndThenSentAsOneByte()
    {
        var encoder = new HpackEncoder();
        var fields = new[] { ("content-type", "application/json"), ("server", "NetCoreServer") };
        var first = Encode(encoder, fields);
        var second = Encode(encoder, fields);
        Assert.That(encoder.Table.Count, Is.EqualTo(2));
        Assert.That(Convert.ToHexString(second), Is.EqualTo("BFBE"), "both fields indexed: 63 and 62");
        Assert.That(first.Length, Is.GreaterThan(10));
    }

    [Test]
    public void FieldsThatChangePerMessageAreNotStored()
    {
        var encoder = new HpackEncoder();
        Encode(encoder, [(":path", "/a?id=1"), ("content-length", "1234"), ("etag", "\"abc\""), ("last-modified", "Mon, 21 Oct 2013 20:13:21 GMT")]);
        Assert.That(encoder.Table.Count, Is.EqualTo(0));
    }

    [Test]
    public void AFieldTooLargeForTheTableIsNotStored()
    {
        var encoder = new HpackEncoder();
        Encode(encoder, [("x-big", new string('v', 3100))]);
        Assert.That(encoder.Table.Count, Is.EqualTo(0), "it would flush three quarters of the table");
    }

    [Test]
    public void APeerTableSizeChangeIsSignalledSmallestFirstThenFinal()
    {
        var encoder = new HpackEncoder();
        encoder.SetPeerTableSizeLimit(100);
        encoder.SetPeerTableSizeLimit(2000);
        var block = Encode(encoder, [(":method", "GET")]);
        // 100 = 31 + 69 (3f 45); 2000 = 31 + 1969 (3f b1 0f); then :method GET (82).
        Assert.That(Convert.ToHexString(block), Is.EqualTo("3F453FB10F82"));
        Assert.That(Convert.ToHexString(Encode(encoder, [(":method", "GET")])), Is.EqualTo("82"), "signalled once");
    }

    [Test]
    public void APeerLimitAboveTheCapKeepsTheCap()
    {
        var encoder = new HpackEncoder(tableSizeCap: 1024);
        var block = Encode(encoder, [(":method", "GET")]);
        Assert.That(Convert.ToHexString(block), Is.EqualTo("3FE1078" + "2"), "4096 is lowered to the cap, 1024 (3f e1 07)");
        encoder.SetPeerTableSizeLimit(65536);
        Assert.That(encoder.Table.MaxSize, Is.EqualTo(1024));
        Assert.That(Convert.ToHexString(Encode(encoder, [(":method", "GET")])), Is.EqualTo("82"), "nothing changed, nothing signalled");
    }

    private static string NameOf(int index) => s_names[Math.Abs(index % s_names.Length)];

    private sealed class HexFields : IHpackHeaderSink
    {
        public List<(string Name, string Value)> Fields { get; } = [];

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, bool neverIndexed)
            => Fields.Add((Encoding.ASCII.GetString(name), Convert.ToHexString(value)));
    }
}
