using System;
using System.Buffers;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Encodes header fields with HPACK (RFC 7541) for one connection's outgoing header blocks. A field found whole in the
/// static or dynamic table is sent as one index; otherwise as a literal that names an entry when one has the name,
/// with its strings Huffman-coded unless that is longer. <see cref="HpackIndexing.Auto"/> stores fields that repeat
/// (content-type, server, cache-control, date...), sends those whose values change per message without indexing
/// (content-length, etag, last-modified, :path...) and credentials never-indexed (authorization, proxy-authorization,
/// cookie, set-cookie; §7.1.3), and never stores a field larger than three quarters of the table, which would flush it.
/// Names must be lowercase, as HTTP/2 requires (the caller's mapping does it). Not thread-safe.
/// </summary>
internal sealed class HpackEncoder
{
    /// <summary>The default <see cref="TableSizeCap"/>: HTTP/2's initial 4096.</summary>
    public const int DefaultTableSizeCap = 4096;

    private readonly HpackDynamicTable _table = new(DefaultTableSizeCap);
    private bool _updatePending;
    private int _smallestPending;

    /// <param name="tableSizeCap">See <see cref="TableSizeCap"/>.</param>
    public HpackEncoder(int tableSizeCap = DefaultTableSizeCap)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(tableSizeCap);
        TableSizeCap = tableSizeCap;
        SetPeerTableSizeLimit(DefaultTableSizeCap);
    }

    /// <summary>
    /// The largest dynamic table this encoder keeps, whatever the peer's decoder allows: 4096 by default. Bounds the
    /// memory per connection that the peer's SETTINGS_HEADER_TABLE_SIZE could otherwise claim.
    /// </summary>
    public int TableSizeCap { get; }

    /// <summary>The dynamic table (for tests and diagnostics).</summary>
    public HpackDynamicTable Table => _table;

    /// <summary>Whether strings are Huffman-coded when that makes them no longer: true by default (as in the RFC's examples).</summary>
    public bool UseHuffman { get; set; } = true;

    /// <summary>
    /// The peer's SETTINGS_HEADER_TABLE_SIZE arrived: the table becomes that size (at most <see cref="TableSizeCap"/>),
    /// and the next block starts with the size update(s) that tell the peer's decoder (§4.2).
    /// </summary>
    public void SetPeerTableSizeLimit(int peerLimit)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(peerLimit);
        var size = Math.Min(peerLimit, TableSizeCap);
        if (size == _table.MaxSize && !_updatePending)
            return;
        _smallestPending = _updatePending ? Math.Min(_smallestPending, size) : Math.Min(_table.MaxSize, size);
        _updatePending = true;
        _table.SetMaxSize(size);
    }

    /// <summary>Starts a header block: writes the pending size updates, if any (the smallest first, then the final one).</summary>
    public void BeginBlock(IBufferWriter<byte> output)
    {
        if (!_updatePending)
            return;
        _updatePending = false;
        if (_smallestPending < _table.MaxSize)
            WriteInteger(output, _smallestPending, 5, 0x20);
        WriteInteger(output, _table.MaxSize, 5, 0x20);
    }

    /// <summary>Writes one field (after <see cref="BeginBlock"/>).</summary>
    public void Encode(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, IBufferWriter<byte> output, HpackIndexing indexing = HpackIndexing.Auto)
    {
        var staticIndex = HpackStaticTable.Find(name, value, out var staticMatch);
        if (indexing == HpackIndexing.Auto && IsSensitive(staticIndex))
            indexing = HpackIndexing.Never;
        var nameIndex = staticIndex;
        if (indexing != HpackIndexing.Never)
        {
            if (staticMatch)
            {
                WriteInteger(output, staticIndex, 7, 0x80);
                return;
            }
            var dynamicIndex = _table.Find(name, value, out var dynamicMatch);
            if (dynamicMatch)
            {
                WriteInteger(output, HpackStaticTable.Count + dynamicIndex, 7, 0x80);
                return;
            }
            if (nameIndex == 0 && dynamicIndex != 0)
                nameIndex = HpackStaticTable.Count + dynamicIndex;
        }
        long size = name.Length + value.Length + HpackDynamicTable.EntryOverhead;
        var store = indexing == HpackIndexing.Store ? size <= _table.MaxSize
            : indexing == HpackIndexing.Auto && !IsVolatile(staticIndex) && size <= _table.MaxSize * 3L / 4;
        if (store)
            WriteInteger(output, nameIndex, 6, 0x40);
        else
            WriteInteger(output, nameIndex, 4, indexing == HpackIndexing.Never ? (byte)0x10 : (byte)0x00);
        if (nameIndex == 0)
            WriteString(output, name);
        WriteString(output, value);
        if (store)
            _table.Add(name, value);
    }

    // Static indexes of credentials: authorization, cookie, proxy-authorization, set-cookie.
    private static bool IsSensitive(int staticIndex) => staticIndex is 23 or 32 or 49 or 55;

    // Static indexes of fields whose values change per message: :path, age, content-length, content-range, etag,
    // if-modified-since, if-none-match, if-range, last-modified, range.
    private static bool IsVolatile(int staticIndex) => staticIndex is 4 or 5 or 21 or 28 or 30 or 34 or 40 or 41 or 42 or 44 or 50;

    private static void WriteInteger(IBufferWriter<byte> output, int value, int prefixBits, byte flags)
    {
        var span = output.GetSpan(HpackInteger.MaxLength);
        output.Advance(HpackInteger.Write(span, value, prefixBits, flags));
    }

    private void WriteString(IBufferWriter<byte> output, ReadOnlySpan<byte> text)
    {
        var huffmanLength = UseHuffman ? HpackHuffman.EncodedLength(text) : long.MaxValue;
        if (huffmanLength <= text.Length)
        {
            var span = output.GetSpan(HpackInteger.MaxLength + (int)huffmanLength);
            var written = HpackInteger.Write(span, (int)huffmanLength, 7, 0x80);
            written += HpackHuffman.Encode(text, span[written..]);
            output.Advance(written);
        }
        else
        {
            var span = output.GetSpan(HpackInteger.MaxLength + text.Length);
            var written = HpackInteger.Write(span, text.Length, 7, 0x00);
            text.CopyTo(span[written..]);
            output.Advance(written + text.Length);
        }
    }
}
