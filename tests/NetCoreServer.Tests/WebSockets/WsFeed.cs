using System;
using System.Collections.Generic;
using System.Text;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// Feeds a byte stream to a <see cref="WsFrameDecoder"/> the way a session does: the stream arrives in pieces, bytes a
/// call did not consume stay at the front and are handed again with the next piece, and after each piece the decoder is
/// called until it needs more data. Events are recorded as text: <c>text:…</c>, <c>binary:N:hex</c>, <c>ping:…</c>,
/// <c>pong:…</c>, <c>close:status:reason</c>, <c>error:status</c>.
/// </summary>
internal static class WsFeed
{
    public static List<string> Run(WsFrameDecoder decoder, ReadOnlySpan<byte> wire, IReadOnlyList<int> cuts)
    {
        var events = new List<string>();
        var pending = new byte[Math.Max(16, wire.Length)];
        int start = 0, end = 0, previous = 0;
        for (var piece = 0; piece <= cuts.Count; piece++)
        {
            var next = piece < cuts.Count ? cuts[piece] : wire.Length;
            wire[previous..next].CopyTo(pending.AsSpan(end));
            end += next - previous;
            previous = next;
            // Every call that does not end the loop consumes at least one byte.
            var calls = 0;
            var bound = end - start + 2;
            while (true)
            {
                if (++calls > bound)
                    throw new InvalidOperationException("the decoder makes no progress");
                var result = decoder.Read(pending.AsSpan(start, end - start), out var consumed);
                if (consumed < 0 || consumed > end - start)
                    throw new InvalidOperationException($"consumed {consumed} of {end - start}");
                start += consumed;
                if (result == WsDecodeResult.NeedMoreData)
                    break;
                events.Add(Describe(decoder, result));
                if (result == WsDecodeResult.Error)
                    return events;
            }
        }
        return events;
    }

    /// <summary>Whole, cut once at every position (at the ends and every 97th inside a long wire), and one byte at a time.</summary>
    public static IEnumerable<(string Name, int[] Cuts)> Splits(int length)
    {
        yield return ("whole", []);
        for (var i = 1; i < length; i++)
        {
            if (length <= 4096 || i < 64 || i > length - 64 || i % 97 == 0)
                yield return ($"cut at {i}", [i]);
        }
        var each = new int[Math.Max(0, length - 1)];
        for (var i = 0; i < each.Length; i++)
            each[i] = i + 1;
        yield return ("one byte at a time", each);
    }

    /// <summary>Runs every split of <paramref name="wire"/> through a fresh decoder and returns the events, checking all splits agree.</summary>
    public static List<string> AllSplitsAgree(Func<WsFrameDecoder> create, byte[] wire)
    {
        List<string>? expected = null;
        foreach (var (name, cuts) in Splits(wire.Length))
        {
            using var decoder = create();
            var events = Run(decoder, wire, cuts);
            if (expected == null)
                expected = events;
            else if (!events.SequenceEqualTo(expected))
                throw new InvalidOperationException($"{name}: [{string.Join(", ", events)}] differs from whole: [{string.Join(", ", expected)}]");
        }
        return expected!;
    }

    public static string Describe(WsFrameDecoder decoder, WsDecodeResult result) => result switch
    {
        WsDecodeResult.Message when decoder.Opcode == WsOpcode.Text => "text:" + Encoding.UTF8.GetString(decoder.Payload),
        WsDecodeResult.Message => $"binary:{decoder.Payload.Count}:{Hex(decoder.Payload)}",
        WsDecodeResult.Ping => "ping:" + Encoding.UTF8.GetString(decoder.Payload),
        WsDecodeResult.Pong => "pong:" + Encoding.UTF8.GetString(decoder.Payload),
        WsDecodeResult.Close => $"close:{decoder.CloseStatus}:{Encoding.UTF8.GetString(decoder.Payload)}",
        _ => $"error:{decoder.ErrorStatus}",
    };

    /// <summary>Hex of up to 32 bytes; a checksum beyond.</summary>
    private static string Hex(ArraySegment<byte> bytes)
    {
        if (bytes.Count <= 32)
            return Convert.ToHexString(bytes);
        var hash = new HashCode();
        hash.AddBytes(bytes);
        return "#" + hash.ToHashCode().ToString("x8");
    }

    public static byte[] Bytes(string hex) => Convert.FromHexString(hex.Replace(" ", "").Replace("0x", ""));

    private static bool SequenceEqualTo(this List<string> a, List<string> b)
    {
        if (a.Count != b.Count)
            return false;
        for (var i = 0; i < a.Count; i++)
        {
            if (a[i] != b[i])
                return false;
        }
        return true;
    }
}
