using System;
using System.Linq;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;
using static NetCoreServer.Tests.Http2.HpackTesting;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Malformed header blocks: each must give <see cref="HpackDecodeResult.CompressionError"/> with a reason (never
/// another exception, never a hang), and leave the decoder failed. Then the limits: header list size, table size
/// updates, and the §4.4 corner where an addition evicts the entry its own name came from.
/// </summary>
[TestFixture]
public sealed class HpackDecoderErrorTests
{
    [TestCase("ff", TestName = "A truncated integer is a compression error")]
    [TestCase("ff80", TestName = "An integer ending in a continuation byte is a compression error")]
    [TestCase("ffffffffff0f", TestName = "An integer past int.MaxValue is a compression error")]
    [TestCase("ff8080808080808001", TestName = "An integer with endless zero groups is a compression error")]
    [TestCase("80", TestName = "Index 0 is a compression error")]
    [TestCase("be", TestName = "An index past an empty dynamic table is a compression error")]
    [TestCase("0f2f0161", TestName = "A literal naming an index past the tables is a compression error")]
    [TestCase("000561", TestName = "A string longer than the block is a compression error")]
    [TestCase("0084ffffffff0161", TestName = "A Huffman string holding EOS is a compression error")]
    [TestCase("00821fff0161", TestName = "Huffman padding longer than 7 bits is a compression error")]
    [TestCase("0081180161", TestName = "Huffman padding that is not all ones is a compression error")]
    [TestCase("3fe21f", TestName = "A size update above the limit is a compression error")]
    [TestCase("8220", TestName = "A size update after a field is a compression error")]
    [TestCase("00", TestName = "A literal without its name is a compression error")]
    [TestCase("400161", TestName = "A literal without its value is a compression error")]
    public void MalformedBlockIsACompressionError(string hex)
    {
        var decoder = new HpackDecoder();
        var (result, _) = Decode(decoder, Hex(hex));
        Assert.That(result, Is.EqualTo(HpackDecodeResult.CompressionError));
        Assert.That(decoder.ErrorReason, Is.Not.Null.And.Not.Empty);
        Assert.That(Decode(decoder, Hex("82")).Result, Is.EqualTo(HpackDecodeResult.CompressionError), "the decoder stays failed");
    }

    [Test]
    public void ASizeUpdateAtTheLimitIsAccepted()
    {
        var decoder = new HpackDecoder();
        var (result, fields) = Decode(decoder, Hex("3fe11f 82"));
        Assert.That((result, decoder.Table.MaxSize), Is.EqualTo((HpackDecodeResult.Ok, 4096)));
        Assert.That(fields, Is.EqualTo(new[] { ":method: GET" }));
    }

    [Test]
    public void TwoSizeUpdatesAtTheStartOfABlockAreAccepted()
    {
        var decoder = new HpackDecoder();
        Assert.That(Decode(decoder, Hex("400161 0162")).Result, Is.EqualTo(HpackDecodeResult.Ok));
        Assert.That(decoder.Table.Count, Is.EqualTo(1));
        // 0 then 4096: the table is emptied, then may grow again (§4.2).
        Assert.That(Decode(decoder, Hex("20 3fe11f 82")).Result, Is.EqualTo(HpackDecodeResult.Ok));
        Assert.That((decoder.Table.Count, decoder.Table.MaxSize), Is.EqualTo((0, 4096)));
    }

    [Test]
    public void ALoweredLimitRequiresASizeUpdateAtTheStartOfTheNextBlock()
    {
        var decoder = new HpackDecoder();
        decoder.SetMaxTableSizeLimit(100);
        var (result, _) = Decode(decoder, Hex("82"));
        Assert.That(result, Is.EqualTo(HpackDecodeResult.CompressionError));
        Assert.That(decoder.ErrorReason, Does.Contain("size update"));

        var obeying = new HpackDecoder();
        obeying.SetMaxTableSizeLimit(100);
        Assert.That(Decode(obeying, Hex("3f45 82")).Result, Is.EqualTo(HpackDecodeResult.Ok), "an update to 100 first");
        Assert.That(obeying.Table.MaxSize, Is.EqualTo(100));
        Assert.That(Decode(obeying, Hex("3f46")).Result, Is.EqualTo(HpackDecodeResult.CompressionError), "101 is above the new limit");
    }

    [Test]
    public void AHeaderListOverTheLimitDropsTheRestButKeepsTheTableInStep()
    {
        // Each field is 1 + 1 + 32 = 34: the limit holds two of the three.
        var decoder = new HpackDecoder(maxHeaderListSize: 70);
        var (result, fields) = Decode(decoder, Hex("400161 0162 400163 0164 400165 0166"));
        Assert.That(result, Is.EqualTo(HpackDecodeResult.HeaderListTooLarge));
        Assert.That(fields, Is.EqualTo(new[] { "a: b", "c: d" }));
        Assert.That(Dump(decoder.Table), Is.EqualTo(new[] { "[  1] (s =  34) e: f", "[  2] (s =  34) c: d", "[  3] (s =  34) a: b" }));
        (result, fields) = Decode(decoder, Hex("be"));
        Assert.That((result, fields.Single()), Is.EqualTo((HpackDecodeResult.Ok, "e: f")), "the next block indexes the dropped field");
    }

    [Test]
    public void AnEntryLargerThanTheTableEmptiesIt()
    {
        var decoder = new HpackDecoder(maxTableSizeLimit: 40);
        Assert.That(Decode(decoder, Hex("400161 0162")).Result, Is.EqualTo(HpackDecodeResult.Ok));
        Assert.That(decoder.Table.Count, Is.EqualTo(1));
        var (result, fields) = Decode(decoder, Hex("400161 0a30313233343536373839"));
        Assert.That((result, fields.Single()), Is.EqualTo((HpackDecodeResult.Ok, "a: 0123456789")));
        Assert.That((decoder.Table.Count, decoder.Table.Size), Is.EqualTo((0, 0)));
    }

    [Test]
    public void ANameTakenFromTheEntryItsOwnAdditionEvictsSurvives()
    {
        // Room for one entry: "abcdefgh: 1" is 41; a field naming it (index 62) with value "22" evicts it while added.
        var decoder = new HpackDecoder(maxTableSizeLimit: 50);
        Assert.That(Decode(decoder, Hex("4008616263646566676801 31")).Result, Is.EqualTo(HpackDecodeResult.Ok));
        var (result, fields) = Decode(decoder, Hex("7e 023232"));
        Assert.That((result, fields.Single()), Is.EqualTo((HpackDecodeResult.Ok, "abcdefgh: 22")));
        Assert.That(Dump(decoder.Table), Is.EqualTo(new[] { "[  1] (s =  42) abcdefgh: 22" }));
    }

    [Test]
    public void RandomAndMutatedBlocksGiveResultsNotExceptions()
    {
        var seed = Environment.TickCount;
        TestContext.Out.WriteLine($"seed {seed}");
        var random = new Random(seed);
        var encoder = new HpackEncoder();
        var outcomes = new int[3];
        for (var i = 0; i < 20_000; i++)
        {
            var fields = Enumerable.Range(0, random.Next(1, 8)).Select(_ => (RandomName(random), RandomValue(random))).ToList();
            var block = Encode(encoder, fields);
            var mutated = Mutate(random, block);
            var decoder = new HpackDecoder(maxTableSizeLimit: random.Next(2) == 0 ? 4096 : 64, maxHeaderListSize: random.Next(2) == 0 ? 32768 : 100);
            try
            {
                outcomes[(int)Decode(decoder, mutated).Result]++;
            }
            catch (Exception e)
            {
                Assert.Fail($"seed {seed}, input {i}: {e.GetType().Name} escaped for {Convert.ToHexString(mutated)}: {e.Message}");
            }
        }
        TestContext.Out.WriteLine($"ok {outcomes[0]}, list too large {outcomes[1]}, compression error {outcomes[2]}");
        Assert.That(outcomes, Has.All.GreaterThan(0), "every outcome was reached");
    }

    private static string RandomName(Random random)
        => random.Next(3) == 0 ? ":path" : new string(Enumerable.Range(0, random.Next(1, 12)).Select(_ => (char)random.Next('a', 'z' + 1)).ToArray());

    private static string RandomValue(Random random)
        => new(Enumerable.Range(0, random.Next(0, 40)).Select(_ => (char)random.Next(0, 256)).ToArray());

    private static byte[] Mutate(Random random, byte[] block)
    {
        var bytes = block.ToList();
        for (var n = random.Next(0, 4); n > 0 && bytes.Count > 0; n--)
        {
            var at = random.Next(bytes.Count);
            switch (random.Next(4))
            {
                case 0: bytes[at] ^= (byte)(1 << random.Next(8)); break;
                case 1: bytes[at] = (byte)random.Next(256); break;
                case 2: bytes.RemoveRange(at, bytes.Count - at); break;
                default: bytes.Insert(at, (byte)random.Next(256)); break;
            }
        }
        return [.. bytes];
    }
}
