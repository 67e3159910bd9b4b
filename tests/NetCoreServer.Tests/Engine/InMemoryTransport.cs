using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Tests.Engine;

/// <summary>
/// A transport with no socket: receives come from a script, every operation completes synchronously
/// (the worst case for recursion), and sends are recorded.
/// </summary>
internal sealed class InMemoryTransport : IStreamTransport
{
    private readonly Queue<byte[]> _incoming = new();
    private readonly MemoryStream _sent = new();
    private TaskCompletionSource<IoResult>? _blockedReceive;

    public bool BlockWhenEmpty { get; set; }

    /// <summary>While true, an asynchronous send stays pending until <see cref="ReleaseSends"/>.</summary>
    public bool HoldSends { get; set; }

    private IReadOnlyList<ArraySegment<byte>>? _heldBatch;
    private TaskCompletionSource<IoResult>? _heldSend;

    public bool Closed { get; private set; }

    public bool ShutdownSent { get; private set; }

    public bool Disposed { get; private set; }

    public int MaxBatchSegments { get; private set; }

    public ConcurrentQueue<int> ZeroByteReceives { get; } = new();

    private Memory<byte> _blockedBuffer;

    public void Enqueue(byte[] data)
    {
        TaskCompletionSource<IoResult>? blocked;
        IoResult result = default;
        lock (_incoming)
        {
            _incoming.Enqueue(data);
            blocked = _blockedReceive;
            _blockedReceive = null;
            if (blocked != null)
                result = _blockedBuffer.IsEmpty ? new IoResult(0, SocketError.Success) : TakeLocked(_blockedBuffer);
        }
        blocked?.TrySetResult(result);
    }

    private IoResult TakeLocked(Memory<byte> buffer)
    {
        // A stream: what does not fit stays for the next read.
        var next = _incoming.Peek();
        var n = Math.Min(next.Length, buffer.Length);
        next.AsSpan(0, n).CopyTo(buffer.Span);
        if (n == next.Length)
            _incoming.Dequeue();
        else
            ReplaceHead(next[n..]);
        return new IoResult(n, SocketError.Success);
    }

    public byte[] Sent()
    {
        lock (_sent)
            return _sent.ToArray();
    }

    public ITlsInfo? Tls => null;

    public System.Net.EndPoint? AdmittedEndPoint { get; set; }

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    /// <summary>Sizes of the buffers the engine received into, in order (0 for a zero-byte wait for data).</summary>
    public ConcurrentQueue<int> ReceiveBufferSizes { get; } = new();

    private ReceiveRelay? _relay;

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
        => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

    public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer)
    {
        ReceiveBufferSizes.Enqueue(buffer.Length);
        lock (_incoming)
        {
            if (Closed)
                return new ValueTask<IoResult>(IoResult.Failed(SocketError.OperationAborted));
            if (buffer.IsEmpty)
            {
                ZeroByteReceives.Enqueue(0);
                if (_incoming.Count > 0 || !BlockWhenEmpty)
                    return new ValueTask<IoResult>(new IoResult(0, SocketError.Success));
            }
            else if (_incoming.Count > 0)
            {
                return new ValueTask<IoResult>(TakeLocked(buffer));
            }
            else if (!BlockWhenEmpty)
            {
                return new ValueTask<IoResult>(new IoResult(0, SocketError.Success));
            }
            _blockedBuffer = buffer;
            _blockedReceive = new TaskCompletionSource<IoResult>(TaskCreationOptions.RunContinuationsAsynchronously);
            return new ValueTask<IoResult>(_blockedReceive.Task);
        }
    }

    private void ReplaceHead(byte[] rest)
    {
        var remaining = _incoming.ToArray();
        remaining[0] = rest;
        _incoming.Clear();
        foreach (var item in remaining)
            _incoming.Enqueue(item);
    }

    /// <summary>How many asynchronous sends the engine made (each would be one socket write, one TLS record).</summary>
    public int AsyncSends { get; private set; }

    public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
    {
        lock (_sent)
        {
            AsyncSends++;
            if (HoldSends)
            {
                _heldBatch = batch;
                _heldSend = new TaskCompletionSource<IoResult>(TaskCreationOptions.RunContinuationsAsynchronously);
                return new ValueTask<IoResult>(_heldSend.Task);
            }
        }
        return new ValueTask<IoResult>(Write(batch));
    }

    /// <summary>Stops holding sends and completes the one held, if any.</summary>
    public void ReleaseSends()
    {
        TaskCompletionSource<IoResult>? held;
        IReadOnlyList<ArraySegment<byte>>? batch;
        lock (_sent)
        {
            HoldSends = false;
            held = _heldSend;
            batch = _heldBatch;
            _heldSend = null;
            _heldBatch = null;
        }
        if (held != null)
            held.SetResult(Write(batch!));
    }

    private IoResult Write(IReadOnlyList<ArraySegment<byte>> batch)
    {
        var total = 0;
        lock (_sent)
        {
            MaxBatchSegments = Math.Max(MaxBatchSegments, batch.Count);
            foreach (var segment in batch)
            {
                _sent.Write(segment);
                total += segment.Count;
            }
        }
        return new IoResult(total, SocketError.Success);
    }

    public IoResult Send(ReadOnlySpan<byte> data)
    {
        lock (_sent)
            _sent.Write(data);
        return new IoResult(data.Length, SocketError.Success);
    }

    public IoResult Receive(Span<byte> buffer) => new(0, SocketError.Success);

    public ValueTask ShutdownSendAsync()
    {
        ShutdownSent = true;
        return ValueTask.CompletedTask;
    }

    public void Close()
    {
        TaskCompletionSource<IoResult>? blocked;
        lock (_incoming)
        {
            Closed = true;
            blocked = _blockedReceive;
        }
        blocked?.TrySetResult(IoResult.Failed(SocketError.OperationAborted));
    }

    public void Dispose() => Disposed = true;
}
