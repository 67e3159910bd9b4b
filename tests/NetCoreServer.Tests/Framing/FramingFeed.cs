using System;
using System.Collections.Generic;
using System.Linq;
using NetCoreServer.Protocols.Framing;

namespace NetCoreServer.Tests.Framing;

/// <summary>Drives a framing as the engine does, for the framing tests.</summary>
internal static class FramingFeed
{
    /// <summary>
    /// Feeds <paramref name="wire"/> in pieces cut at <paramref name="cuts"/> (positions inside it; others ignored):
    /// what is not consumed is handed again with the next piece. Returns the messages; <paramref name="kept"/> is what
    /// was left unconsumed, <paramref name="refused"/> whether the framing refused the input.
    /// </summary>
    public static List<byte[]> Feed(MessageFraming framing, byte[] wire, IEnumerable<int> cuts, out int kept, out bool refused)
    {
        var received = new List<byte[]>();
        var pending = new List<byte>();
        var scanned = 0;
        var from = 0;
        refused = false;
        foreach (var cut in cuts.Where(c => c > 0 && c < wire.Length).Distinct().Order().Append(wire.Length))
        {
            pending.AddRange(wire[from..cut]);
            from = cut;
            while (true)
            {
                var data = pending.ToArray();
                var scan = framing.Next(data, ref scanned, out var start, out var length, out var consumed);
                if (scan == FrameScan.NeedMore)
                    break;
                if (scan != FrameScan.Message)
                {
                    refused = true;
                    kept = pending.Count;
                    return received;
                }
                received.Add(data.AsSpan(start, length).ToArray());
                pending.RemoveRange(0, consumed);
            }
        }
        kept = pending.Count;
        return received;
    }

    /// <summary>The message as the framing puts it on the wire.</summary>
    public static byte[] Frame(MessageFraming framing, byte[] message)
    {
        var prefix = new byte[MessageFraming.MaxPrefix];
        var length = framing.WritePrefix(message, prefix);
        return [.. prefix[..length], .. message, .. framing.Suffix];
    }
}
