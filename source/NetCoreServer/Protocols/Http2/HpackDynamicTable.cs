using System;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// HPACK's dynamic table (RFC 7541 §2.3.2, §4): a FIFO of fields, newest at index 1, whose size (each entry's name and
/// value lengths plus 32) never passes <see cref="MaxSize"/>; adding evicts from the oldest end, and an entry larger
/// than the whole table empties it and is not added (§4.4). The bytes of all entries live in one array, appended at the
/// end and compacted to the front when the end is reached; the array starts small and grows to at most twice
/// <see cref="MaxSize"/>, so a table costs no allocation per entry and compaction moves each byte a bounded number of
/// times. Spans it hands out are valid until the next <see cref="Add"/> or <see cref="SetMaxSize"/>. Not thread-safe.
/// </summary>
internal sealed class HpackDynamicTable
{
    /// <summary>The size an entry adds beyond its name and value (§4.1).</summary>
    public const int EntryOverhead = 32;

    private const int FirstByteCapacity = 256;
    private const int FirstEntryCapacity = 16;

    private struct Entry
    {
        public int Offset;
        public int NameLength;
        public int ValueLength;
    }

    private byte[] _bytes = [];
    private Entry[] _entries = [];
    // The oldest entry's slot in the _entries ring; newer ones follow it.
    private int _oldest;
    private int _end;

    /// <param name="maxSize">The size the table starts with (4096 in HTTP/2 until SETTINGS say otherwise).</param>
    public HpackDynamicTable(int maxSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSize);
        MaxSize = maxSize;
    }

    /// <summary>How many entries the table holds.</summary>
    public int Count { get; private set; }

    /// <summary>The sum of the entries' sizes (name + value + 32 each).</summary>
    public int Size { get; private set; }

    /// <summary>The most <see cref="Size"/> may be.</summary>
    public int MaxSize { get; private set; }

    /// <summary>The name of entry <paramref name="index"/>, 1 (newest) to <see cref="Count"/>.</summary>
    public ReadOnlySpan<byte> Name(int index)
    {
        ref readonly var entry = ref At(index);
        return _bytes.AsSpan(entry.Offset, entry.NameLength);
    }

    /// <summary>The value of entry <paramref name="index"/>, 1 (newest) to <see cref="Count"/>.</summary>
    public ReadOnlySpan<byte> Value(int index)
    {
        ref readonly var entry = ref At(index);
        return _bytes.AsSpan(entry.Offset + entry.NameLength, entry.ValueLength);
    }

    /// <summary>Changes the maximum size (a size update), evicting the oldest entries until the table fits.</summary>
    public void SetMaxSize(int maxSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxSize);
        MaxSize = maxSize;
        EvictTo(maxSize);
    }

    /// <summary>
    /// Adds a field as the newest entry, evicting as needed. The name and value must not point into this table (the
    /// decoder copies a name it takes from here first).
    /// </summary>
    public void Add(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var size = (long)name.Length + value.Length + EntryOverhead;
        if (size > MaxSize)
        {
            EvictTo(0);
            return;
        }
        EvictTo(MaxSize - (int)size);
        var length = name.Length + value.Length;
        MakeRoom(length);
        name.CopyTo(_bytes.AsSpan(_end));
        value.CopyTo(_bytes.AsSpan(_end + name.Length));
        if (Count == _entries.Length)
            GrowEntries();
        _entries[(_oldest + Count) % _entries.Length] = new Entry { Offset = _end, NameLength = name.Length, ValueLength = value.Length };
        _end += length;
        Count++;
        Size += (int)size;
    }

    /// <summary>
    /// Finds a field, newest first: the index of an entry with this name and value, or else of the newest entry with
    /// this name (<paramref name="valueMatches"/> then false), or 0.
    /// </summary>
    public int Find(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, out bool valueMatches)
    {
        var nameIndex = 0;
        for (var i = 1; i <= Count; i++)
        {
            ref readonly var entry = ref At(i);
            if (entry.NameLength != name.Length || !name.SequenceEqual(_bytes.AsSpan(entry.Offset, entry.NameLength)))
                continue;
            if (entry.ValueLength == value.Length && value.SequenceEqual(_bytes.AsSpan(entry.Offset + entry.NameLength, entry.ValueLength)))
            {
                valueMatches = true;
                return i;
            }
            if (nameIndex == 0)
                nameIndex = i;
        }
        valueMatches = false;
        return nameIndex;
    }

    private ref readonly Entry At(int index)
    {
        if ((uint)(index - 1) >= (uint)Count)
            throw new ArgumentOutOfRangeException(nameof(index), index, "No such dynamic table entry.");
        return ref _entries[(_oldest + Count - index) % _entries.Length];
    }

    private void EvictTo(int size)
    {
        while (Size > size)
        {
            ref readonly var oldest = ref _entries[_oldest];
            Size -= oldest.NameLength + oldest.ValueLength + EntryOverhead;
            _oldest = (_oldest + 1) % _entries.Length;
            Count--;
        }
        if (Count == 0)
        {
            _oldest = 0;
            _end = 0;
        }
    }

    // Ensures `length` contiguous bytes at _end: compacts when the live bytes leave half the array free, else grows.
    private void MakeRoom(int length)
    {
        if (_end + length <= _bytes.Length)
            return;
        var start = Count == 0 ? _end : _entries[_oldest].Offset;
        var live = _end - start;
        var target = _bytes;
        if ((long)live + length > _bytes.Length / 2)
        {
            var grown = Math.Min(Math.Max(2L * _bytes.Length, 2L * (live + length)), 2L * MaxSize);
            target = new byte[(int)Math.Min(int.MaxValue, Math.Max(FirstByteCapacity, grown))];
        }
        Array.Copy(_bytes, start, target, 0, live);
        _bytes = target;
        for (var i = 0; i < Count; i++)
            _entries[(_oldest + i) % _entries.Length].Offset -= start;
        _end = live;
    }

    private void GrowEntries()
    {
        var grown = new Entry[Math.Max(FirstEntryCapacity, _entries.Length * 2)];
        for (var i = 0; i < Count; i++)
            grown[i] = _entries[(_oldest + i) % _entries.Length];
        _entries = grown;
        _oldest = 0;
    }
}
