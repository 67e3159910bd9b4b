using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace NetCoreServer.Transports.Tls;

/// <summary>
/// A <see cref="Stream"/> view of any plain <see cref="IStreamTransport"/> (socket or event loop), for the
/// <see cref="SslStream"/> of a <see cref="TlsTransport"/>. One read and one write at a time (SslStream makes no more). A
/// cancelled token (the handshake's timeout) shuts the socket down both ways, which ends the pending call with
/// <see cref="OperationCanceledException"/>. Thread-safe as far as one reader and one writer go; no lock.
/// </summary>
/// <remarks>
/// The stream is itself its reads' value-task source and its writes' one-segment batch, so a TLS connection holds this
/// one object beside its transport (see docs/design/transports.md).
/// </remarks>
internal sealed class TransportStream : Stream, IReceiveCompletion, IValueTaskSource<int>, IReadOnlyList<ArraySegment<byte>>
{
    // A cancelled token ends the calls under way (see Abort).
    private static readonly Action<object?> s_abort = static s => ((TransportStream)s!).Abort();

    private readonly IStreamTransport _transport;
    private ManualResetValueTaskSourceCore<int> _read;
    private Memory<byte> _readBuffer;
    private CancellationToken _readToken;
    private CancellationTokenRegistration _readCancel;

    // The segment of the write under way, handed to the transport as a batch of one (this list).
    private ArraySegment<byte> _writing;

    public TransportStream(IStreamTransport transport)
    {
        _transport = transport;
        _read.RunContinuationsAsynchronously = false;
    }

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
        _read.Reset();
        _readBuffer = buffer;
        _readToken = cancellationToken;
        if (cancellationToken.CanBeCanceled)
            _readCancel = cancellationToken.UnsafeRegister(s_abort, this);
        IoResult result;
        // A read that would block (an event loop's: nothing there after all) is made again; that one waits.
        do
        {
            if (!_transport.TryReceive(buffer, this, out result))
                return new ValueTask<int>(this, _read.Version);
        }
        while (result.Error == SocketError.WouldBlock);
        EndRead();
        if (cancellationToken.IsCancellationRequested)
            return ValueTask.FromCanceled<int>(cancellationToken);
        return result.Succeeded ? new ValueTask<int>(result.Bytes) : ValueTask.FromException<int>(Failure(result.Error, cancellationToken));
    }

    void IReceiveCompletion.ReceiveCompleted(IoResult result)
    {
        while (result.Error == SocketError.WouldBlock)
        {
            if (!_transport.TryReceive(_readBuffer, this, out result))
                return;
        }
        var token = _readToken;
        EndRead();
        if (token.IsCancellationRequested)
            _read.SetException(new OperationCanceledException(token));
        else if (result.Succeeded)
            _read.SetResult(result.Bytes);
        else
            _read.SetException(Failure(result.Error, token));
    }

    /// <summary>
    /// Ends a pending read or write by shutting the socket down both ways (the read then sees the end of stream, the write
    /// fails): a FIN, where disposing a socket with a pending runtime call would reset the connection (.NET on Linux). A
    /// transport without a socket is closed.
    /// </summary>
    private void Abort()
    {
        var socket = _transport.Socket;
        if (socket == null)
        {
            _transport.Close();
            return;
        }
        try
        {
            socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception exception) when (exception is SocketException or ObjectDisposedException)
        {
            // Reset or closed already: the pending call has failed or is failing by itself.
        }
    }

    private void EndRead()
    {
        _readCancel.Dispose();
        _readCancel = default;
        _readBuffer = default;
        _readToken = default;
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        if (!MemoryMarshal.TryGetArray(buffer, out var segment))
            segment = new ArraySegment<byte>(buffer.ToArray());
        using var cancel = cancellationToken.CanBeCanceled ? cancellationToken.UnsafeRegister(s_abort, this) : default;
        try
        {
            while (segment.Count > 0)
            {
                _writing = segment;
                var result = await _transport.SendAsync(this).ConfigureAwait(false);
                if (!result.Succeeded)
                    throw Failure(result.Error, cancellationToken);
                segment = segment.Slice(result.Bytes);
            }
        }
        finally
        {
            _writing = default;
        }
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

    int IValueTaskSource<int>.GetResult(short token) => _read.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<int>.GetStatus(short token) => _read.GetStatus(token);

    void IValueTaskSource<int>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _read.OnCompleted(continuation, state, token, flags);

    int IReadOnlyCollection<ArraySegment<byte>>.Count => 1;

    ArraySegment<byte> IReadOnlyList<ArraySegment<byte>>.this[int index]
        => index == 0 ? _writing : throw new ArgumentOutOfRangeException(nameof(index));

    IEnumerator<ArraySegment<byte>> IEnumerable<ArraySegment<byte>>.GetEnumerator()
    {
        yield return _writing;
    }

    IEnumerator IEnumerable.GetEnumerator() => ((IEnumerable<ArraySegment<byte>>)this).GetEnumerator();
}
