using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;
using NetCoreServer.Core;

namespace NetCoreServer.Transports;

/// <summary>
/// The stream a TLS transport reads and writes when its socket is on an event loop: what NetworkStream is for a socket
/// on the runtime's engine, over an <see cref="EpollTransport"/>'s reads and writes. One read and one write at a time
/// (SslStream makes no more); each that cannot complete at once completes on the loop's thread. A cancelled token (the
/// TLS handshake's timeout) closes the connection, which ends the pending call with <see cref="OperationCanceledException"/>.
/// </summary>
internal sealed class LoopStream : Stream, IReceiveCompletion
{
    private readonly EpollTransport _transport;
    private readonly Reader _reader = new();
    private readonly List<ArraySegment<byte>> _batch = new(1) { default };
    private Memory<byte> _readBuffer;
    private CancellationToken _readToken;
    private CancellationTokenRegistration _readCancel;

    // A cancelled token closes the connection (see the summary).
    private static readonly Action<object?> s_close = static s => ((LoopStream)s!)._transport.Close();

    public LoopStream(EpollTransport transport) => _transport = transport;

    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
            return ValueTask.FromCanceled<int>(cancellationToken);
        _reader.Core.Reset();
        _readBuffer = buffer;
        _readToken = cancellationToken;
        if (cancellationToken.CanBeCanceled)
            _readCancel = cancellationToken.UnsafeRegister(s_close, this);
        IoResult result;
        // A read that would block (nothing there after all) is made again: that one waits for the socket.
        do
        {
            if (!_transport.TryReceive(buffer, this, out result))
                return new ValueTask<int>(_reader, _reader.Core.Version);
        }
        while (result.Error == SocketError.WouldBlock);
        _readCancel.Dispose();
        _readCancel = default;
        _readBuffer = default;
        return result.Succeeded ? new ValueTask<int>(result.Bytes) : ValueTask.FromException<int>(Failure(result.Error, cancellationToken));
    }

    void IReceiveCompletion.ReceiveCompleted(IoResult result)
    {
        while (result.Error == SocketError.WouldBlock)
        {
            if (!_transport.TryReceive(_readBuffer, this, out result))
                return;
        }
        _readCancel.Dispose();
        _readCancel = default;
        _readBuffer = default;
        if (result.Succeeded)
            _reader.Core.SetResult(result.Bytes);
        else
            _reader.Core.SetException(Failure(result.Error, _readToken));
    }

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        if (!MemoryMarshal.TryGetArray(buffer, out var segment))
            segment = new ArraySegment<byte>(buffer.ToArray());
        using var cancel = cancellationToken.CanBeCanceled ? cancellationToken.UnsafeRegister(s_close, this) : default;
        while (segment.Count > 0)
        {
            _batch[0] = segment;
            var result = await _transport.SendAsync(_batch).ConfigureAwait(false);
            if (!result.Succeeded)
                throw Failure(result.Error, cancellationToken);
            segment = segment.Slice(result.Bytes);
        }
        _batch[0] = default;
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        var result = _transport.Receive(buffer);
        return result.Succeeded ? result.Bytes : throw Failure(result.Error, default);
    }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        var result = _transport.Send(buffer);
        if (!result.Succeeded)
            throw Failure(result.Error, default);
    }

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
        => WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush()
    {
    }

    public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    // As NetworkStream reports a broken socket; a call the token ended (the connection closed for it) as cancelled.
    private static Exception Failure(SocketError error, CancellationToken token)
        => token.IsCancellationRequested ? new OperationCanceledException(token) : new IOException($"The connection failed: {error}", new SocketException((int)error));

    private sealed class Reader : IValueTaskSource<int>
    {
        public ManualResetValueTaskSourceCore<int> Core;

        public Reader() => Core.RunContinuationsAsynchronously = false;

        public int GetResult(short token) => Core.GetResult(token);

        public ValueTaskSourceStatus GetStatus(short token) => Core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
            => Core.OnCompleted(continuation, state, token, flags);
    }
}
