using System;

namespace NetCoreServer.Core;

/// <summary>Where an <see cref="IMessageWriter"/> writes: the end of a connection's send queue, under the session lock.</summary>
internal ref struct QueueWriter
{
    private readonly SendQueue _queue;
    private readonly int _chunkSize;

    public QueueWriter(SendQueue queue, int chunkSize)
    {
        _queue = queue;
        _chunkSize = chunkSize;
    }

    /// <summary>Bytes written so far.</summary>
    public int Written { get; private set; }

    /// <summary>Copies <paramref name="data"/> to the end of the queue.</summary>
    public void Write(scoped ReadOnlySpan<byte> data)
    {
        _queue.Append(data, _chunkSize);
        Written += data.Length;
    }
}
