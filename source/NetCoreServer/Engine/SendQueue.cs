using System;
using System.Collections.Generic;
using System.Threading;
using NetCoreServer.Buffers;

namespace NetCoreServer.Engine;

/// <summary>
/// Bytes accepted for sending and not yet handed to the transport. Small writes are coalesced into pooled
/// chunks; multicast log blocks are queued by reference. Not thread-safe: only the <see cref="SendPipeline"/> (and
/// the cursor it hands it to) calls it, under the session lock. Segments taken for sending leave the queue, so
/// appends never touch bytes in flight.
/// </summary>
internal sealed class SendQueue
{
    /// <summary>Smallest pooled chunk for coalesced small writes; OptionSendBufferSize may raise it.</summary>
    internal const int MinChunkSize = 4 * 1024;

    /// <summary>One batch is capped so a huge backlog cannot pin a huge gather list.</summary>
    internal const int MaxBatchBytes = 1024 * 1024;

    /// <summary>Well below IOV_MAX (1024 on Linux).</summary>
    internal const int MaxBatchSegments = 64;

    // Marks borrowed bytes nobody needs to be told about (a response cached for the server's lifetime).
    private static readonly object s_notOwned = new();

    // Made on the first segment that does not fit the tail: an idle connection never needs it.
    private Queue<Segment>? _pending;
    private Segment _tail;
    private bool _hasTail;
    private long _sending;
    private long _sent;

    public long Bytes { get; private set; }

    // What the send loop took from the queue, and two counters that span queued and taken bytes. They live here rather
    // than in the engine so that a connection that never sent holds none of them (the queue is made by the first send).

    /// <summary>The batch the send loop took and is sending (made by its first batch).</summary>
    public InFlightBatch? Batch { get; set; }

    /// <summary>Bytes handed to the transport and not yet sent: the batch's, or a blocking send's. Under the engine's lock (see <see cref="ReadSending"/>).</summary>
    public long Sending
    {
        get => _sending;
        set => Volatile.Write(ref _sending, value);
    }

    /// <summary>Bytes accepted for sending over the connection's life: what a send waiter waits for.</summary>
    public long AcceptedTotal { get; set; }

    /// <summary>Bytes sent over the connection's life; under the engine's lock (see <see cref="ReadSent"/>).</summary>
    public long Sent => _sent;

    /// <summary>Counts <paramref name="bytes"/> sent; under the engine's lock.</summary>
    public void AddSent(long bytes) => Volatile.Write(ref _sent, _sent + bytes);

    // Volatile, not Interlocked: a 64-bit volatile read is atomic on every platform, and Interlocked.Read is a locked
    // compare-exchange that took a third of a multicast's time (issue 23).

    /// <summary><see cref="Sent"/>, read without the engine's lock.</summary>
    public long ReadSent() => Volatile.Read(ref _sent);

    /// <summary><see cref="Sending"/>, read without the engine's lock.</summary>
    public long ReadSending() => Volatile.Read(ref _sending);

    public bool IsEmpty => Bytes == 0;

    /// <summary>Copies <paramref name="data"/> in, into pooled chunks of at least <paramref name="chunkSize"/> bytes (and <see cref="MinChunkSize"/>).</summary>
    public void Append(ReadOnlySpan<byte> data, int chunkSize)
    {
        while (!data.IsEmpty)
        {
            if (!_hasTail || _tail.Owner != null || _tail.Offset + _tail.Count == _tail.Array.Length)
            {
                FlushTail();
                _tail = new Segment(EngineBuffers.Rent(Math.Max(data.Length, Math.Max(MinChunkSize, chunkSize))), 0, 0, null);
                _hasTail = true;
            }
            var room = _tail.Array.Length - _tail.Offset - _tail.Count;
            var n = Math.Min(room, data.Length);
            data.Slice(0, n).CopyTo(_tail.Array.AsSpan(_tail.Offset + _tail.Count));
            _tail.Count += n;
            Bytes += n;
            data = data.Slice(n);
        }
    }

    /// <summary>
    /// Room for <paramref name="length"/> contiguous bytes at the end of the queue, in the tail chunk or a new one, to be
    /// written and then counted by <see cref="Advance"/>; empty when more than a chunk is asked for.
    /// </summary>
    public Span<byte> GetAppendSpan(int length, int chunkSize)
    {
        var size = Math.Max(MinChunkSize, chunkSize);
        if (length > size)
            return default;
        if (!_hasTail || _tail.Owner != null || _tail.Array.Length - _tail.Offset - _tail.Count < length)
        {
            FlushTail();
            _tail = new Segment(EngineBuffers.Rent(size), 0, 0, null);
            _hasTail = true;
        }
        return _tail.Array.AsSpan(_tail.Offset + _tail.Count, length);
    }

    /// <summary>Counts <paramref name="length"/> bytes written into the span of <see cref="GetAppendSpan"/>.</summary>
    public void Advance(int length)
    {
        _tail.Count += length;
        Bytes += length;
    }

    /// <summary>Queues the first <paramref name="count"/> bytes of <paramref name="chunk"/>, a chunk from <see cref="EngineBuffers.Rent"/> that the queue now owns (a stage's), as its tail.</summary>
    public void AppendOwned(byte[] chunk, int count)
    {
        FlushTail();
        _tail = new Segment(chunk, 0, count, null);
        _hasTail = true;
        Bytes += count;
    }

    /// <summary>
    /// Queues bytes of a multicast log block by reference. Consecutive ranges of the same block extend one segment, so
    /// a run of small messages is one gather entry; a new segment takes a reader reference on the block, released after sending.
    /// </summary>
    public void AppendLog(LogChunk chunk, int offset, int count)
    {
        Bytes += count;
        if (_hasTail && ReferenceEquals(_tail.Owner, chunk) && _tail.Offset + _tail.Count == offset)
        {
            _tail.Count += count;
            return;
        }
        FlushTail();
        chunk.AddReader();
        _tail = new Segment(chunk.Array, offset, count, chunk);
        _hasTail = true;
    }

    /// <summary>
    /// Queues <paramref name="data"/> by reference, without copying: the caller keeps the bytes unchanged until they
    /// are sent, and <paramref name="owner"/> (if any) is disposed once they are (or once the queue is cleared).
    /// </summary>
    public void AppendBorrowed(ArraySegment<byte> data, IDisposable? owner)
    {
        FlushTail();
        Pending.Enqueue(new Segment(data.Array!, data.Offset, data.Count, owner ?? s_notOwned));
        Bytes += data.Count;
    }

    /// <summary>Moves up to one batch of segments into <paramref name="batch"/>; false when nothing is queued.</summary>
    public bool TakeBatch(InFlightBatch batch)
    {
        FlushTail();
        if (_pending == null)
            return batch.Count > 0;
        var bytes = 0L;
        while (_pending.Count > 0 && batch.Count < MaxBatchSegments && bytes < MaxBatchBytes)
        {
            var segment = _pending.Dequeue();
            bytes += segment.Count;
            batch.Add(segment);
        }
        Bytes -= bytes;
        return batch.Count > 0;
    }

    /// <summary>Releases everything still queued (teardown).</summary>
    public void Clear()
    {
        FlushTail();
        while (_pending is { Count: > 0 })
            _pending.Dequeue().Release();
        Bytes = 0;
    }

    private Queue<Segment> Pending => _pending ??= new Queue<Segment>();

    private void FlushTail()
    {
        if (!_hasTail)
            return;
        if (_tail.Count > 0)
            Pending.Enqueue(_tail);
        else
            _tail.Release();
        _hasTail = false;
        _tail = default;
    }

    /// <summary>
    /// A run of bytes to send. <see cref="Owner"/> says who releases the array afterwards: null for a pooled chunk of
    /// this queue, a <see cref="LogChunk"/> for multicast bytes, an <see cref="IDisposable"/> or a marker for
    /// borrowed bytes.
    /// </summary>
    internal struct Segment
    {
        public Segment(byte[] array, int offset, int count, object? owner)
        {
            Array = array;
            Offset = offset;
            Count = count;
            Owner = owner;
        }

        public byte[] Array;
        public int Offset;
        public int Count;
        public object? Owner;

        public void Release()
        {
            switch (Owner)
            {
                case null when Array != null:
                    EngineBuffers.Return(Array);
                    break;
                case LogChunk chunk:
                    chunk.ReleaseReader();
                    break;
                case IDisposable disposable:
                    disposable.Dispose();
                    break;
            }
        }
    }
}
