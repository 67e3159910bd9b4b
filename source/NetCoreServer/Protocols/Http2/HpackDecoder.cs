using System;
using System.Buffers;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Decodes HPACK header blocks (RFC 7541) for one connection, one whole block at a time (a HEADERS frame's fragment
/// and its CONTINUATIONs joined, bounded by the connection). Literal strings are handed to the sink as spans over the
/// block itself; only Huffman-coded ones are decoded, into a scratch buffer rented for the call, so a block costs no
/// allocation. Enforced: integers and string lengths within the block and within int, Huffman padding, indexes within
/// the tables, size updates only at the start of a block and never above <see cref="MaxTableSizeLimit"/>, and the
/// update that must follow a lowered limit (§4.2), each a <see cref="HpackDecodeResult.CompressionError"/> after which
/// the decoder stays failed; and the header list size (the sum of name + value + 32 per field), which only drops the
/// fields past it (<see cref="HpackDecodeResult.HeaderListTooLarge"/>). Not thread-safe.
/// </summary>
internal sealed class HpackDecoder
{
    /// <summary>The dynamic table size HTTP/2 starts with (SETTINGS_HEADER_TABLE_SIZE's initial value).</summary>
    public const int DefaultTableSize = 4096;

    /// <summary>The default <see cref="MaxHeaderListSize"/>: 32 KiB, as HTTP/1.1's head limit.</summary>
    public const int DefaultMaxHeaderListSize = 32 * 1024;

    private readonly HpackDynamicTable _table;
    private bool _sizeUpdateRequired;
    private bool _failed;

    /// <param name="maxTableSizeLimit">
    /// See <see cref="MaxTableSizeLimit"/>; also the table's starting size. In HTTP/2 that is the protocol's 4096 even
    /// when a lower value is advertised, since the peer may send blocks before it sees the SETTINGS: the lower value is
    /// applied with <see cref="SetMaxTableSizeLimit"/> once acknowledged.
    /// </param>
    /// <param name="maxHeaderListSize">See <see cref="MaxHeaderListSize"/>.</param>
    public HpackDecoder(int maxTableSizeLimit = DefaultTableSize, int maxHeaderListSize = DefaultMaxHeaderListSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxTableSizeLimit);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxHeaderListSize);
        _table = new HpackDynamicTable(maxTableSizeLimit);
        MaxTableSizeLimit = maxTableSizeLimit;
        MaxHeaderListSize = maxHeaderListSize;
    }

    /// <summary>
    /// The largest dynamic table the peer may ask for in a size update: the SETTINGS_HEADER_TABLE_SIZE this side
    /// advertised (4096 by default). Bounds the memory the peer's encoder can make this decoder hold.
    /// </summary>
    public int MaxTableSizeLimit { get; private set; }

    /// <summary>
    /// The largest header list handed on (SETTINGS_MAX_HEADER_LIST_SIZE: the sum of name + value + 32 per field),
    /// 32 KiB by default; fields past it are decoded and dropped.
    /// </summary>
    public int MaxHeaderListSize { get; set; }

    /// <summary>The dynamic table (for tests and diagnostics).</summary>
    public HpackDynamicTable Table => _table;

    /// <summary>Why the last block failed, or null.</summary>
    public string? ErrorReason { get; private set; }

    /// <summary>
    /// Changes <see cref="MaxTableSizeLimit"/>, once the peer has acknowledged the SETTINGS that carried it. Lowered below
    /// the table's current size, the peer's next block must start with a size update within it (§4.2).
    /// </summary>
    public void SetMaxTableSizeLimit(int limit)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(limit);
        MaxTableSizeLimit = limit;
        if (limit < _table.MaxSize)
            _sizeUpdateRequired = true;
    }

    /// <summary>Decodes one complete header block, handing each field to <paramref name="sink"/> in order.</summary>
    public HpackDecodeResult Decode<TSink>(ReadOnlySpan<byte> block, TSink sink)
        where TSink : IHpackHeaderSink
    {
        if (_failed)
            return HpackDecodeResult.CompressionError;
        // Every string of a field is at most its encoded length * 8 / 5 long, so one buffer of that size serves the block.
        var scratch = ArrayPool<byte>.Shared.Rent(Math.Max(16, HpackHuffman.MaxDecodedLength(block.Length)));
        try
        {
            var error = DecodeFields(block, sink, scratch, out var tooLarge);
            if (error is null)
                return tooLarge ? HpackDecodeResult.HeaderListTooLarge : HpackDecodeResult.Ok;
            _failed = true;
            ErrorReason = error;
            return HpackDecodeResult.CompressionError;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(scratch);
        }
    }

    // Returns null, or why the block is malformed.
    private string? DecodeFields<TSink>(ReadOnlySpan<byte> block, TSink sink, byte[] scratch, out bool tooLarge)
        where TSink : IHpackHeaderSink
    {
        tooLarge = false;
        var position = 0;
        var fieldSeen = false;
        long listSize = 0;
        while (position < block.Length)
        {
            var first = block[position];
            if ((first & 0xE0) == 0x20)
            {
                // §6.3: a dynamic table size update, allowed only before the first field of a block.
                if (fieldSeen)
                    return "a dynamic table size update after a header field";
                if (!HpackInteger.TryRead(block, ref position, 5, out var size))
                    return "a truncated or oversized integer";
                if (size > MaxTableSizeLimit)
                    return "a dynamic table size update above SETTINGS_HEADER_TABLE_SIZE";
                _table.SetMaxSize(size);
                _sizeUpdateRequired = false;
                continue;
            }
            if (_sizeUpdateRequired)
                return "no dynamic table size update after SETTINGS_HEADER_TABLE_SIZE was lowered";
            fieldSeen = true;
            ReadOnlySpan<byte> name, value;
            var neverIndexed = false;
            if ((first & 0x80) != 0)
            {
                // §6.1: an indexed field.
                if (!HpackInteger.TryRead(block, ref position, 7, out var index))
                    return "a truncated or oversized integer";
                if (!TryGetEntry(index, out name, out value))
                    return "an index outside the tables";
            }
            else
            {
                // §6.2: a literal, with incremental indexing (01), without (0000) or never indexed (0001).
                var indexing = (first & 0xC0) == 0x40;
                neverIndexed = (first & 0xF0) == 0x10;
                if (!HpackInteger.TryRead(block, ref position, indexing ? 6 : 4, out var nameIndex))
                    return "a truncated or oversized integer";
                var scratchUsed = 0;
                if (nameIndex == 0)
                {
                    if (!TryReadString(block, ref position, scratch, ref scratchUsed, out name))
                        return "a malformed string literal";
                }
                else if (!TryGetEntry(nameIndex, out name, out _))
                {
                    return "an index outside the tables";
                }
                if (!TryReadString(block, ref position, scratch, ref scratchUsed, out value))
                    return "a malformed string literal";
                listSize += name.Length + value.Length + HpackDynamicTable.EntryOverhead;
                if (listSize > MaxHeaderListSize)
                    tooLarge = true;
                else
                    sink.OnHeader(name, value, neverIndexed);
                if (indexing)
                    AddToTable(name, value, nameIndex > HpackStaticTable.Count);
                continue;
            }
            listSize += name.Length + value.Length + HpackDynamicTable.EntryOverhead;
            if (listSize > MaxHeaderListSize)
                tooLarge = true;
            else
                sink.OnHeader(name, value, neverIndexed);
        }
        return null;
    }

    private void AddToTable(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, bool nameInTable)
    {
        if (!nameInTable)
        {
            _table.Add(name, value);
            return;
        }
        // §4.4: the name may belong to an entry this very addition evicts, so it is copied out of the table first.
        var copy = ArrayPool<byte>.Shared.Rent(Math.Max(1, name.Length));
        name.CopyTo(copy);
        _table.Add(copy.AsSpan(0, name.Length), value);
        ArrayPool<byte>.Shared.Return(copy);
    }

    private bool TryGetEntry(int index, out ReadOnlySpan<byte> name, out ReadOnlySpan<byte> value)
    {
        if (index >= 1 && index <= HpackStaticTable.Count)
        {
            name = HpackStaticTable.Name(index);
            value = HpackStaticTable.Value(index);
            return true;
        }
        var dynamicIndex = index - HpackStaticTable.Count;
        if (index > 0 && dynamicIndex <= _table.Count)
        {
            name = _table.Name(dynamicIndex);
            value = _table.Value(dynamicIndex);
            return true;
        }
        name = value = default;
        return false;
    }

    private static bool TryReadString(ReadOnlySpan<byte> block, scoped ref int position, byte[] scratch, scoped ref int scratchUsed, out ReadOnlySpan<byte> text)
    {
        text = default;
        if (position >= block.Length)
            return false;
        var huffman = (block[position] & 0x80) != 0;
        if (!HpackInteger.TryRead(block, ref position, 7, out var length) || length > block.Length - position)
            return false;
        var raw = block.Slice(position, length);
        position += length;
        if (!huffman)
        {
            text = raw;
            return true;
        }
        var destination = scratch.AsSpan(scratchUsed);
        if (!HpackHuffman.TryDecode(raw, destination, out var written))
            return false;
        text = destination[..written];
        scratchUsed += written;
        return true;
    }
}
