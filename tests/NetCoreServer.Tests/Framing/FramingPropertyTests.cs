using System;
using System.Collections.Generic;
using System.Linq;
using FsCheck;
using FsCheck.Fluent;
using NetCoreServer.Protocols.Framing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Framing;

/// <summary>
/// FsCheck properties of the framings: any messages, cut at any points, come out whole and in order; a stream that
/// ends inside a message yields the messages before it and keeps the rest; shrinking finds the smallest failing case.
/// </summary>
[TestFixture]
public sealed class FramingPropertyTests
{
    private static readonly Config Runs = Config.QuickThrowOnFailure.WithMaxTest(500);

    public static IEnumerable<TestCaseData> Framings()
    {
        yield return new TestCaseData(MessageFraming.LengthPrefixed(1)).SetName("{m} length 1");
        yield return new TestCaseData(MessageFraming.LengthPrefixed(2, bigEndian: false, lengthIncludesHeader: true)).SetName("{m} length 2 LE incl");
        yield return new TestCaseData(MessageFraming.LengthPrefixed(4)).SetName("{m} length 4");
        yield return new TestCaseData(MessageFraming.LengthPrefixed(8, bigEndian: false)).SetName("{m} length 8 LE");
        yield return new TestCaseData(MessageFraming.Delimited("\r\n"u8)).SetName("{m} CRLF");
        yield return new TestCaseData(MessageFraming.Delimited([0])).SetName("{m} zero byte");
    }

    [TestCaseSource(nameof(Framings))]
    public void MessagesCutAnywhereComeOutWholeAndInOrder(MessageFraming framing)
        => Prop.ForAll<byte[][], int[]>((generated, cuts) =>
        {
            var messages = Valid(framing, generated);
            var wire = messages.SelectMany(m => Frame(framing, m)).ToArray();
            var received = Feed(framing, wire, cuts, out var kept, out var refused);
            return !refused && kept == 0 && received.Count == messages.Count
                && received.Zip(messages).All(pair => pair.First.SequenceEqual(pair.Second));
        }).Check(Runs);

    [TestCaseSource(nameof(Framings))]
    public void AStreamEndingInsideAMessageKeepsItsRestAndDeliversWhatCameBefore(MessageFraming framing)
        => Prop.ForAll<byte[][], byte[], int>((generated, last, cut) =>
        {
            var messages = Valid(framing, generated);
            var tail = Frame(framing, Valid(framing, [last])[0]);
            var missing = 1 + (int)((uint)cut % (uint)tail.Length);
            var wire = messages.SelectMany(m => Frame(framing, m)).Concat(tail[..^missing]).ToArray();
            var received = Feed(framing, wire, [], out var kept, out var refused);
            return !refused && received.Count == messages.Count && kept == tail.Length - missing;
        }).Check(Runs);

    // Generated messages within the framing's limits, and without its delimiter.
    private static List<byte[]> Valid(MessageFraming framing, byte[][] generated)
    {
        var messages = new List<byte[]>();
        foreach (var message in generated ?? [])
        {
            var copy = (message ?? [])[..Math.Min(message?.Length ?? 0, framing.MaxMessageSize)];
            var delimiter = framing.Suffix.ToArray();
            if (delimiter.Length > 0)
            {
                int at;
                while ((at = copy.AsSpan().IndexOf(delimiter)) >= 0)
                    copy[at] ^= 0x5A;
            }
            messages.Add(copy);
        }
        return messages;
    }

    private static byte[] Frame(MessageFraming framing, byte[] message) => FramingFeed.Frame(framing, message);

    // Generated cut points, folded into the wire.
    private static List<byte[]> Feed(MessageFraming framing, byte[] wire, int[] cuts, out int kept, out bool refused)
        => FramingFeed.Feed(framing, wire, (cuts ?? []).Select(c => wire.Length == 0 ? 0 : (int)((uint)c % (uint)wire.Length)), out kept, out refused);
}
