using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using NetCoreServer.Protocols.Framing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Framing;

/// <summary>The framings alone: what they cut out of a stream split anywhere, what they refuse, what they write.</summary>
[TestFixture]
public sealed class MessageFramingTests
{
    public static IEnumerable<TestCaseData> Framings()
    {
        foreach (var size in new[] { 1, 2, 4, 8 })
        foreach (var bigEndian in new[] { true, false })
        foreach (var includes in new[] { false, true })
            yield return new TestCaseData(new Func<int, MessageFraming>(max => MessageFraming.LengthPrefixed(size, bigEndian, includes, Math.Min(max, size == 1 ? 250 : max))))
                .SetName($"length {size} {(bigEndian ? "BE" : "LE")}{(includes ? " incl" : "")}");
        yield return new TestCaseData(new Func<int, MessageFraming>(max => MessageFraming.Delimited("\r\n"u8, max))).SetName("delimited CRLF");
        yield return new TestCaseData(new Func<int, MessageFraming>(max => MessageFraming.Delimited([0xAB, 0xAB, 0xCD], max))).SetName("delimited 3 bytes");
        yield return new TestCaseData(new Func<int, MessageFraming>(max => MessageFraming.Lines(max))).SetName("lines");
    }

    [TestCaseSource(nameof(Framings))]
    public void AnySequenceOfMessagesSplitAnywhereComesOutWholeAndInOrder(Func<int, MessageFraming> make)
    {
        var random = new Random(22_24);
        for (var round = 0; round < 400; round++)
        {
            var framing = make(1 + random.Next(300));
            var messages = Enumerable.Range(0, random.Next(1, 12)).Select(_ => Message(random, framing)).ToList();
            var wire = messages.SelectMany(m => Frame(framing, m)).ToArray();
            var received = Feed(framing, wire, Splits(random, wire.Length), out var refused);
            Assert.That(refused, Is.False, $"round {round}");
            Assert.That(received, Has.Count.EqualTo(messages.Count), $"round {round}");
            for (var i = 0; i < messages.Count; i++)
                Assert.That(received[i], Is.EqualTo(messages[i]), $"round {round}, message {i}");
        }
    }

    [TestCaseSource(nameof(Framings))]
    public void AMessageOverTheLimitIsRefusedBeforeItAllArrives(Func<int, MessageFraming> make)
    {
        var framing = make(100);
        var max = framing.MaxMessageSize;
        if (framing.Suffix.IsEmpty)
        {
            // A peer frames a message one byte too long: its length prefix alone is refused.
            var prefix = Frame(make(max + 1), new byte[max + 1])[..framing.Overhead];
            Feed(framing, prefix, [], out var refused);
            Assert.That(refused, Is.True);
            return;
        }
        // Without a delimiter: up to the limit (and a line's CR) it waits, past it it refuses.
        var lines = IsLines(framing);
        var waiting = Enumerable.Repeat((byte)'x', max + (lines ? 1 : 0) + framing.Overhead - 1).ToArray();
        Feed(framing, waiting, [], out var early);
        Assert.That(early, Is.False, "a message that may still end within the limit");
        Feed(framing, [.. waiting, (byte)'x'], [], out var late);
        Assert.That(late, Is.True);
    }

    [Test]
    public void ALengthShorterThanItsOwnFieldIsRefused()
    {
        var framing = MessageFraming.LengthPrefixed(4, lengthIncludesHeader: true);
        var scanned = 0;
        Assert.That(framing.Next([0, 0, 0, 3, 1, 2, 3], ref scanned, out _, out _, out _), Is.EqualTo(FrameScan.Invalid));
        Assert.That(framing.Next([0, 0, 0, 4], ref scanned, out _, out var length, out var consumed), Is.EqualTo(FrameScan.Message), "an empty message counts its field");
        Assert.That((length, consumed), Is.EqualTo((0, 4)));
    }

    [Test]
    public void LinesDropTheCarriageReturnAndKeepEmptyLines()
    {
        var received = Feed(MessageFraming.Lines(), Encoding.UTF8.GetBytes("one\r\n\ntwo\n\r\nthree"), [2, 4, 9], out var refused);
        Assert.That(refused, Is.False);
        Assert.That(received.Select(m => Encoding.UTF8.GetString(m)), Is.EqualTo(new[] { "one", "", "two", "" }), "'three' waits for its line end");
    }

    [Test]
    public void ALineOfExactlyTheLimitPassesWithOrWithoutItsCarriageReturn()
    {
        var line = new string('x', 10);
        var received = Feed(MessageFraming.Lines(10), Encoding.ASCII.GetBytes(line + "\r\n" + line + "\n"), [], out var refused);
        Assert.That(refused, Is.False);
        Assert.That(received, Has.Count.EqualTo(2));
        Feed(MessageFraming.Lines(10), Encoding.ASCII.GetBytes(line + "x\n"), [], out refused);
        Assert.That(refused, Is.True, "eleven bytes");
    }

    [Test]
    public void SendingRefusesWhatCannotBeFramed()
    {
        Span<byte> prefix = stackalloc byte[MessageFraming.MaxPrefix];
        Assert.That(() => MessageFraming.Lines().WritePrefix("a\nb"u8, new byte[8]), Throws.ArgumentException);
        Assert.That(() => MessageFraming.Delimited("\r\n"u8).WritePrefix("a\r\nb"u8, new byte[8]), Throws.ArgumentException);
        Assert.That(() => MessageFraming.LengthPrefixed(2, maxMessageSize: 10).WritePrefix(new byte[11], new byte[8]), Throws.ArgumentException);
        Assert.That(MessageFraming.Delimited("\r\n"u8).WritePrefix("a\rb\nc"u8, prefix), Is.Zero, "a lone CR or LF is not the delimiter");
        Assert.That(MessageFraming.LengthPrefixed(2, bigEndian: false).WritePrefix(new byte[0x0102], prefix), Is.EqualTo(2));
        Assert.That(prefix[..2].ToArray(), Is.EqualTo(new byte[] { 0x02, 0x01 }));
    }

    [Test]
    public void ImpossibleFramingsAreRefusedWhenMade()
    {
        Assert.That(() => MessageFraming.LengthPrefixed(3), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => MessageFraming.LengthPrefixed(1, maxMessageSize: 256), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => MessageFraming.LengthPrefixed(1, lengthIncludesHeader: true, maxMessageSize: 255), Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => MessageFraming.Delimited([]), Throws.ArgumentException);
        Assert.That(() => MessageFraming.Lines(0), Throws.TypeOf<ArgumentOutOfRangeException>());
    }

    [Test]
    public void TheDefaultMaximumIsWhatTheLengthFieldCanCountUpTo64KiB()
    {
        Assert.That(MessageFraming.LengthPrefixed(1).MaxMessageSize, Is.EqualTo(255));
        Assert.That(MessageFraming.LengthPrefixed(1, lengthIncludesHeader: true).MaxMessageSize, Is.EqualTo(254));
        Assert.That(MessageFraming.LengthPrefixed(2).MaxMessageSize, Is.EqualTo(65535));
        Assert.That(MessageFraming.LengthPrefixed(4).MaxMessageSize, Is.EqualTo(MessageFraming.DefaultMaxMessageSize));
        Assert.That(MessageFraming.Lines().MaxMessageSize, Is.EqualTo(MessageFraming.DefaultMaxLineLength));
    }

    [TestCaseSource(nameof(Framings))]
    public void AMillionRandomInputsThrowNothingAndKeepNoMoreThanTheLimit(Func<int, MessageFraming> make)
    {
        var random = new Random(24);
        var framing = make(200);
        var buffer = new byte[framing.MaxMessageSize + framing.Overhead + 64];
        var scanned = 0;
        var kept = 0;
        for (var i = 0; i < 1_000_000; i++)
        {
            // Random bytes arrive in small pieces; whatever the framing does with them, it never waits for more than a message's worth.
            var n = random.Next(1, 5);
            if (kept + n > buffer.Length)
                Assert.Fail($"kept {kept} bytes, past a whole message of at most {framing.MaxMessageSize + framing.Overhead}");
            random.NextBytes(buffer.AsSpan(kept, n));
            kept += n;
            while (true)
            {
                var scan = framing.Next(buffer.AsSpan(0, kept), ref scanned, out var start, out var length, out var consumed);
                if (scan == FrameScan.NeedMore)
                    break;
                if (scan == FrameScan.Message)
                    Assert.That(start + length, Is.LessThanOrEqualTo(consumed));
                else
                    consumed = kept;
                buffer.AsSpan(consumed, kept - consumed).CopyTo(buffer);
                kept -= consumed;
                scanned = 0;
            }
        }
    }

    private static List<byte[]> Feed(MessageFraming framing, byte[] wire, IReadOnlyList<int> splits, out bool refused)
        => FramingFeed.Feed(framing, wire, splits, out _, out refused);

    private static byte[] Frame(MessageFraming framing, byte[] message) => FramingFeed.Frame(framing, message);

    private static byte[] Message(Random random, MessageFraming framing)
    {
        var message = new byte[random.Next(0, framing.MaxMessageSize + 1)];
        random.NextBytes(message);
        if (framing.Suffix.Length > 0)
        {
            // Delimiter bytes may appear, just never the whole delimiter (nor, for lines, a trailing CR).
            var delimiter = framing.Suffix.ToArray();
            while (message.AsSpan().IndexOf(delimiter) >= 0)
                message[message.AsSpan().IndexOf(delimiter)] ^= 0x55;
            if (IsLines(framing) && message.Length > 0 && message[^1] == '\r')
                message[^1] = (byte)'r';
        }
        return message;
    }

    private static int[] Splits(Random random, int length)
        => Enumerable.Range(0, random.Next(0, 8)).Select(_ => random.Next(0, length + 1)).ToArray();

    private static bool IsLines(MessageFraming framing) => framing is DelimitedFraming && framing.Suffix.SequenceEqual("\n"u8);
}
