using System;
using System.Collections.Generic;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Performance.Benchmarks.InMemory;

/// <summary>
/// One end of an in-memory stream connection for the session engine: what one end sends is appended to the other
/// end's inbox, or copied straight into its pending receive, so a pair of engines talk with no socket and no kernel.
/// A send always completes at once (the inbox grows as needed, there is no flow control); a receive completes at once
/// when the inbox holds data, otherwise when the peer sends. A completed pending receive resumes the engine on the
/// thread pool (like a socket completion) or, with <c>inline</c>, on the sending thread (pure CPU cost, no thread
/// hop). After its buffers have grown to the traffic, steady state allocates nothing.
/// </summary>
internal sealed class InMemoryDuplexTransport : IStreamTransport, IValueTaskSource<IoResult>
{
    private readonly object _lock = new();
    private ManualResetValueTaskSourceCore<IoResult> _receive;
    private InMemoryDuplexTransport _peer = null!;
    private byte[] _inbox = new byte[4096];
    private int _inboxStart;
    private int _inboxCount;
    private Memory<byte> _pendingBuffer;
    private bool _receivePending;
    private bool _endOfStream;
    private bool _closed;

    private InMemoryDuplexTransport(bool inline)
        => _receive = new ManualResetValueTaskSourceCore<IoResult> { RunContinuationsAsynchronously = !inline };

    /// <summary>Two connected ends.</summary>
    /// <param name="inline">Resume a waiting receiver on the sender's thread instead of the thread pool.</param>
    public static (InMemoryDuplexTransport First, InMemoryDuplexTransport Second) CreatePair(bool inline)
    {
        var first = new InMemoryDuplexTransport(inline);
        var second = new InMemoryDuplexTransport(inline);
        first._peer = second;
        second._peer = first;
        return (first, second);
    }

    /// <summary>Bytes this end has sent in all.</summary>
    public long BytesSent => Interlocked.Read(ref _bytesSent);

    private long _bytesSent;

    public ITlsInfo? Tls => null;

    public System.Net.EndPoint? AdmittedEndPoint { get; set; }

    public bool Disposed { get; private set; }

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    private ReceiveRelay? _relay;

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
        => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

    public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer)
    {
        lock (_lock)
        {
            if (_closed)
                return new ValueTask<IoResult>(IoResult.Failed(SocketError.OperationAborted));
            if (_inboxCount > 0)
                return new ValueTask<IoResult>(new IoResult(buffer.IsEmpty ? 0 : TakeLocked(buffer.Span), SocketError.Success));
            if (_endOfStream)
                return new ValueTask<IoResult>(new IoResult(0, SocketError.Success));
            _receive.Reset();
            _pendingBuffer = buffer;
            _receivePending = true;
            return new ValueTask<IoResult>(this, _receive.Version);
        }
    }

    public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
    {
        var total = 0;
        for (var i = 0; i < batch.Count; i++)
        {
            _peer.Deliver(batch[i]);
            total += batch[i].Count;
        }
        Interlocked.Add(ref _bytesSent, total);
        return new ValueTask<IoResult>(new IoResult(total, SocketError.Success));
    }

    public IoResult Send(ReadOnlySpan<byte> data)
    {
        _peer.Deliver(data);
        Interlocked.Add(ref _bytesSent, data.Length);
        return new IoResult(data.Length, SocketError.Success);
    }

    /// <summary>The blocking receive: waits (bounded only by the peer) for data or the end of the stream.</summary>
    public IoResult Receive(Span<byte> buffer)
    {
        lock (_lock)
        {
            while (_inboxCount == 0 && !_endOfStream && !_closed)
                Monitor.Wait(_lock);
            if (_closed)
                return IoResult.Failed(SocketError.OperationAborted);
            return new IoResult(_inboxCount == 0 ? 0 : TakeLocked(buffer), SocketError.Success);
        }
    }

    public ValueTask ShutdownSendAsync()
    {
        _peer.EndOfStream();
        return ValueTask.CompletedTask;
    }

    public void Close()
    {
        bool wake;
        lock (_lock)
        {
            _closed = true;
            wake = TakePendingLocked();
            Monitor.PulseAll(_lock);
        }
        if (wake)
            _receive.SetResult(IoResult.Failed(SocketError.OperationAborted));
        // The peer sees the connection end, as after a reset.
        _peer.EndOfStream();
    }

    public void Dispose() => Disposed = true;

    private void Deliver(ReadOnlySpan<byte> data)
    {
        if (data.IsEmpty)
            return;
        IoResult result;
        lock (_lock)
        {
            if (_closed)
                return;
            if (!TakePendingLocked())
            {
                AppendLocked(data);
                Monitor.PulseAll(_lock);
                return;
            }
            var buffer = _pendingBuffer.Span;
            var n = Math.Min(buffer.Length, data.Length);
            data[..n].CopyTo(buffer);
            AppendLocked(data[n..]);
            result = new IoResult(n, SocketError.Success);
            _pendingBuffer = default;
        }
        _receive.SetResult(result);
    }

    private void EndOfStream()
    {
        bool wake;
        lock (_lock)
        {
            _endOfStream = true;
            wake = TakePendingLocked() && _inboxCount == 0;
            Monitor.PulseAll(_lock);
        }
        if (wake)
            _receive.SetResult(new IoResult(0, SocketError.Success));
    }

    private bool TakePendingLocked()
    {
        var pending = _receivePending;
        _receivePending = false;
        return pending;
    }

    private int TakeLocked(Span<byte> buffer)
    {
        var n = Math.Min(buffer.Length, _inboxCount);
        _inbox.AsSpan(_inboxStart, n).CopyTo(buffer);
        _inboxStart += n;
        _inboxCount -= n;
        if (_inboxCount == 0)
            _inboxStart = 0;
        return n;
    }

    private void AppendLocked(ReadOnlySpan<byte> data)
    {
        if (data.IsEmpty)
            return;
        if (_inboxStart + _inboxCount + data.Length > _inbox.Length)
        {
            var target = _inboxCount + data.Length > _inbox.Length ? new byte[Math.Max(_inbox.Length * 2, _inboxCount + data.Length)] : _inbox;
            _inbox.AsSpan(_inboxStart, _inboxCount).CopyTo(target);
            _inbox = target;
            _inboxStart = 0;
        }
        data.CopyTo(_inbox.AsSpan(_inboxStart + _inboxCount));
        _inboxCount += data.Length;
    }

    IoResult IValueTaskSource<IoResult>.GetResult(short token) => _receive.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<IoResult>.GetStatus(short token) => _receive.GetStatus(token);

    void IValueTaskSource<IoResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _receive.OnCompleted(continuation, state, token, flags);
}
