using System;
using System.Collections.Generic;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Feeds a byte stream to an HTTP reader the way the engine and a session do: the stream arrives in pieces, the bytes
/// a call did not consume stay at the front and are handed again with the next piece, and after each piece the reader
/// is called in a loop until it needs more data or fails. Records "H" for each HeaderReady and "M:…" (a description of
/// the message) for each MessageReady, then "E:status" for an error.
/// </summary>
internal static class HttpFeed
{
    /// <summary>Feeds <paramref name="wire"/> cut at <paramref name="cuts"/> (ascending positions), then ends the stream when asked.</summary>
    public static List<string> Run(HttpMessageReader reader, ReadOnlySpan<byte> wire, IReadOnlyList<int> cuts, Func<string> describe, bool endOfStream = true, Action? afterMessage = null)
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
            if (!Drain(reader, pending, ref start, end, events, describe, afterMessage))
                return events;
        }
        if (endOfStream)
            Record(reader, reader.Complete(), events, describe, afterMessage);
        return events;
    }

    /// <summary>Whole; cut once at every position; one byte at a time.</summary>
    public static IEnumerable<(string Name, int[] Cuts)> Splits(int length)
    {
        yield return ("whole", Array.Empty<int>());
        for (var i = 1; i < length; i++)
            yield return ($"cut at {i}", new[] { i });
        var each = new int[Math.Max(0, length - 1)];
        for (var i = 0; i < each.Length; i++)
            each[i] = i + 1;
        yield return ("one byte at a time", each);
    }

    private static bool Drain(HttpMessageReader reader, byte[] pending, ref int start, int end, List<string> events, Func<string> describe, Action? afterMessage)
    {
        // Every call either consumes, or moves a message on (HeaderReady to MessageReady), or stops the loop.
        var calls = 0;
        var bound = 2 * (end - start) + 8;
        while (true)
        {
            if (++calls > bound)
                throw new InvalidOperationException("the reader makes no progress");
            var result = reader.Read(pending.AsSpan(start, end - start), out var consumed);
            if (consumed < 0 || consumed > end - start)
                throw new InvalidOperationException($"consumed {consumed} of {end - start}");
            start += consumed;
            if (!Record(reader, result, events, describe, afterMessage))
                return false;
            if (result == HttpReadResult.NeedMoreData)
                return true;
        }
    }

    private static bool Record(HttpMessageReader reader, HttpReadResult result, List<string> events, Func<string> describe, Action? afterMessage)
    {
        switch (result)
        {
            case HttpReadResult.HeaderReady:
                events.Add("H");
                return true;
            case HttpReadResult.MessageReady:
                events.Add("M:" + describe());
                afterMessage?.Invoke();
                return true;
            case HttpReadResult.Error:
                events.Add("E:" + reader.ErrorStatus);
                return false;
            default:
                return true;
        }
    }

    /// <summary>A request as the tests compare it: start line, fields, cookies, body and what the reader decided.</summary>
    public static string Describe(HttpRequestReader reader)
    {
        var request = reader.Request;
        var text = new System.Text.StringBuilder();
        text.Append(request.Method).Append(' ').Append(request.Url).Append(' ').Append(request.Protocol).Append(" |");
        for (var i = 0; i < request.Headers; i++)
            text.Append(' ').Append(request.Header(i).Item1).Append('=').Append(request.Header(i).Item2).Append(';');
        text.Append(" | body=").Append(request.Body).Append(" len=").Append(request.BodyLength);
        text.Append(" ka=").Append(reader.KeepAlive ? 1 : 0).Append(" chunked=").Append(reader.IsChunked ? 1 : 0).Append(" expect=").Append(reader.ExpectContinue ? 1 : 0);
        return text.ToString();
    }

    /// <summary>A response as the tests compare it.</summary>
    public static string Describe(HttpResponseReader reader)
    {
        var response = reader.Response;
        var text = new System.Text.StringBuilder();
        text.Append(response.Protocol).Append(' ').Append(response.Status).Append(' ').Append(response.StatusPhrase).Append(" |");
        for (var i = 0; i < response.Headers; i++)
            text.Append(' ').Append(response.Header(i).Item1).Append('=').Append(response.Header(i).Item2).Append(';');
        text.Append(" | body=").Append(response.Body).Append(" len=").Append(response.BodyLength);
        text.Append(" ka=").Append(reader.KeepAlive ? 1 : 0).Append(" chunked=").Append(reader.IsChunked ? 1 : 0);
        return text.ToString();
    }
}
