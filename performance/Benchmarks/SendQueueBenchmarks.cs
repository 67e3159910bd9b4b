using System;
using System.Linq;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Engine;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// The send queue alone: a burst of <see cref="Messages"/> small sends appended (copied into pooled chunks), then
/// flushed as the send loop does (taken as gathered batches and consumed as if the transport sent them whole); and the
/// same burst as multicast, queued by reference over a log block. The figure is per message; steady state allocates
/// nothing.
/// </summary>
[MemoryDiagnoser]
public class SendQueueBenchmarks
{
    private const int Messages = 64;

    // The chunk size a connection with default options coalesces into.
    private static readonly int s_chunkSize = new EngineOptions().SendBufferSize;
    private readonly SendQueue _queue = new();
    private readonly InFlightBatch _batch = new();
    private byte[] _message = [];
    private LogChunk _chunk = null!;

    /// <summary>Message size in bytes.</summary>
    [Params(32, 1024)]
    public int Size { get; set; }

    /// <summary>Makes the message and a log block holding the burst, and checks one flush of each kind sends the burst in order.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _message = Enumerable.Range(0, Size).Select(i => (byte)(i % 251)).ToArray();
        _chunk = new LogChunk(new MulticastLog(), 0, 1);
        for (var i = 0; i < Messages; i++)
            _message.CopyTo(_chunk.Array.AsSpan(i * Size));
        var expected = Enumerable.Range(0, Messages).SelectMany(_ => _message).ToArray();

        AppendAll();
        Check(expected, "Append");
        AppendLogAll();
        Check(expected, "AppendLog");
    }

    /// <summary>Returns the log block to the pool.</summary>
    [GlobalCleanup]
    public void Cleanup() => _chunk.Release();

    /// <summary>Copies each message into the queue, then flushes it.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long AppendAndFlush()
    {
        AppendAll();
        return Flush();
    }

    /// <summary>Queues each message by reference to the log block (as a session takes multicast bytes), then flushes it.</summary>
    [Benchmark(OperationsPerInvoke = Messages)]
    public long AppendLogAndFlush()
    {
        AppendLogAll();
        return Flush();
    }

    private void AppendAll()
    {
        for (var i = 0; i < Messages; i++)
            _queue.Append(_message, s_chunkSize);
    }

    private void AppendLogAll()
    {
        for (var i = 0; i < Messages; i++)
            _queue.AppendLog(_chunk, i * Size, Size);
    }

    private long Flush()
    {
        long sent = 0;
        while (_queue.TakeBatch(_batch))
        {
            var bytes = _batch.Bytes;
            _batch.Consume((int)bytes);
            sent += bytes;
        }
        return sent;
    }

    private void Check(byte[] expected, string what)
    {
        var sent = new System.Collections.Generic.List<byte>();
        while (_queue.TakeBatch(_batch))
        {
            foreach (var view in _batch.Views)
                sent.AddRange(view);
            _batch.Consume((int)_batch.Bytes);
        }
        if (!sent.SequenceEqual(expected) || !_queue.IsEmpty)
            throw new InvalidOperationException($"{what}: the flushed bytes are not the {Messages} messages in order");
    }
}
