using System;
using System.Linq;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>The field block joiner: fragments come out whole, a block past the bound is refused (CONTINUATION flood), and nothing is held between blocks.</summary>
[TestFixture]
public sealed class Http2FieldBlockBufferTests
{
    [Test]
    public void FragmentsAreJoinedInOrderAndDecode()
    {
        // C.4.1 cut in three, as HEADERS and two CONTINUATIONs would carry it.
        var block = HpackTesting.Hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff");
        using var buffer = new Http2FieldBlockBuffer(maxBlockSize: 1024);
        Assert.That(buffer.TryStart(1, block.AsSpan(0, 5)), Is.True);
        Assert.That(buffer.TryAppend(block.AsSpan(5, 6)), Is.True);
        Assert.That(buffer.TryAppend(block.AsSpan(11)), Is.True);
        Assert.That((buffer.StreamId, buffer.Block.ToArray()), Is.EqualTo((1, block)));
        var (result, fields) = HpackTesting.Decode(new HpackDecoder(), buffer.Block.ToArray());
        Assert.That((result, fields.Last()), Is.EqualTo((HpackDecodeResult.Ok, ":authority: www.example.com")));
    }

    [Test]
    public void AnEndlessRunOfContinuationStopsAtTheBound()
    {
        using var buffer = new Http2FieldBlockBuffer(maxBlockSize: 64 * 1024);
        var fragment = new byte[16_384];
        Assert.That(buffer.TryStart(3, fragment), Is.True);
        var appended = 0;
        while (appended < 1000 && buffer.TryAppend(fragment))
            appended++;
        Assert.That(appended, Is.EqualTo(3), "four 16 KiB fragments fill 64 KiB; the fifth is refused");
        Assert.That(buffer.Block.Length, Is.EqualTo(64 * 1024), "a refused fragment adds nothing");
    }

    [Test]
    public void NothingIsHeldAfterABlock()
    {
        using var buffer = new Http2FieldBlockBuffer(maxBlockSize: 1024);
        Assert.That(buffer.TryStart(5, new byte[100]), Is.True);
        buffer.Reset();
        Assert.That((buffer.StreamId, buffer.Block.Length), Is.EqualTo((0, 0)));
        Assert.That(buffer.TryStart(7, new byte[1025]), Is.False, "one fragment past the bound is refused too");
    }
}
