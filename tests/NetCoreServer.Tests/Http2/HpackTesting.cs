using System;
using System.Buffers;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using NetCoreServer.Protocols.Http2;

namespace NetCoreServer.Tests.Http2;

/// <summary>Helpers for the HPACK tests: a sink that keeps the fields, hex in the RFC's layout, and table dumps.</summary>
internal static class HpackTesting
{
    /// <summary>Bytes from the RFC's hex dump layout ("8286 8441 ...", spaces and line breaks ignored).</summary>
    public static byte[] Hex(string dump) => Convert.FromHexString(string.Concat(dump.Where(c => !char.IsWhiteSpace(c))));

    /// <summary>Decodes a block, returning the result and the fields as "name: value" lines.</summary>
    public static (HpackDecodeResult Result, List<string> Fields) Decode(HpackDecoder decoder, byte[] block)
    {
        var sink = new FieldList();
        var result = decoder.Decode(block, sink);
        return (result, sink.Fields);
    }

    /// <summary>The table as the RFC prints it: "[  1] (s =  55) custom-key: custom-header", newest first.</summary>
    public static List<string> Dump(HpackDynamicTable table)
        => Enumerable.Range(1, table.Count)
            .Select(i => $"[{i,3}] (s = {table.Name(i).Length + table.Value(i).Length + 32,3}) {Ascii(table.Name(i))}: {Ascii(table.Value(i))}")
            .ToList();

    /// <summary>Encodes one header list as a block.</summary>
    public static byte[] Encode(HpackEncoder encoder, IEnumerable<(string Name, string Value)> fields, HpackIndexing indexing = HpackIndexing.Auto)
    {
        var output = new ArrayBufferWriter<byte>();
        encoder.BeginBlock(output);
        foreach (var (name, value) in fields)
            encoder.Encode(Encoding.Latin1.GetBytes(name), Encoding.Latin1.GetBytes(value), output, indexing);
        return output.WrittenSpan.ToArray();
    }

    public static string Ascii(ReadOnlySpan<byte> bytes) => Encoding.Latin1.GetString(bytes);

    /// <summary>Keeps every field as "name: value" (with " (never)" for never-indexed ones when asked).</summary>
    internal sealed class FieldList(bool markNeverIndexed = false) : IHpackHeaderSink
    {
        public List<string> Fields { get; } = [];

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, bool neverIndexed)
            => Fields.Add($"{Ascii(name)}: {Ascii(value)}{(markNeverIndexed && neverIndexed ? " (never)" : "")}");
    }
}
