using System;
using System.Collections.Generic;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Core;

namespace NetCoreServer.Transports;

/// <summary>
/// Stream transport over a connected socket on SocketAsyncEventArgs. Serves TCP and Unix domain sockets
/// alike: they differ only by the endpoint the socket was created for.
/// </summary>
/// <remarks>
/// The transport is itself the SocketAsyncEventArgs of its receives, and reports a pending one straight to the engine
/// (<see cref="TryReceive"/>): what an idle connection waits with is then this one object, no awaitable wrapper beside
/// it (measured over 10,000 idle TCP sessions: 72 B less per session than a transport holding an awaitable args).
/// </remarks>
internal sealed class SocketTransport : SocketAsyncEventArgs, IStreamTransport
{
    private readonly Socket _socket;
    // Made by the first asynchronous send (one sender at a time, see IStreamTransport): an idle connection needs none.
    private AwaitableSocketArgs? _sendArgs;
    // Set while a receive is pending: told when it completes.
    private IReceiveCompletion? _completion;
    private int _closed;

    public SocketTransport(Socket socket)
        : base(unsafeSuppressExecutionContextFlow: true)
    {
        _socket = socket;
    }

    public Socket Socket => _socket;

    public ITlsInfo? Tls => null;

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
    {
        if (Volatile.Read(ref _closed) != 0)
        {
            result = IoResult.Failed(SocketError.OperationAborted);
            return true;
        }
        SetBuffer(buffer);
        // Set before the start: a pending receive may complete on another thread before ReceiveAsync returns.
        _completion = completion;
        try
        {
            if (_socket.ReceiveAsync(this))
            {
                result = default;
                return false;
            }
            result = new IoResult(BytesTransferred, SocketError);
        }
        catch (ObjectDisposedException)
        {
            result = IoResult.Failed(SocketError.OperationAborted);
        }
        catch (SocketException e)
        {
            result = IoResult.Failed(e.SocketErrorCode);
        }
        catch (InvalidOperationException)
        {
            // The socket was closed between the state check and the call.
            result = IoResult.Failed(SocketError.OperationAborted);
        }
        _completion = null;
        return true;
    }

    protected override void OnCompleted(SocketAsyncEventArgs e)
    {
        var completion = _completion!;
        _completion = null;
        completion.ReceiveCompleted(new IoResult(BytesTransferred, SocketError));
    }

    /// <summary>A receive as a task, through the socket's own awaitable receive; the engine receives with <see cref="TryReceive"/>.</summary>
    public async ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer)
    {
        if (Volatile.Read(ref _closed) != 0)
            return IoResult.Failed(SocketError.OperationAborted);
        try
        {
            return new IoResult(await _socket.ReceiveAsync(buffer, SocketFlags.None).ConfigureAwait(false), SocketError.Success);
        }
        catch (SocketException e)
        {
            return IoResult.Failed(e.SocketErrorCode);
        }
        catch (ObjectDisposedException)
        {
            return IoResult.Failed(SocketError.OperationAborted);
        }
    }

    public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
    {
        if (Volatile.Read(ref _closed) != 0)
            return new ValueTask<IoResult>(IoResult.Failed(SocketError.OperationAborted));
        return (_sendArgs ??= new AwaitableSocketArgs()).SendAsync(_socket, batch);
    }
    public IoResult Send(ReadOnlySpan<byte> data)
    {
        try
        {
            var sent = 0;
            while (sent < data.Length)
            {
                var n = _socket.Send(data.Slice(sent), SocketFlags.None, out var error);
                if (error != SocketError.Success)
                    return new IoResult(sent, error);
                sent += n;
            }
            return new IoResult(sent, SocketError.Success);
        }
        catch (ObjectDisposedException)
        {
            return IoResult.Failed(SocketError.OperationAborted);
        }
    }

    public IoResult Receive(Span<byte> buffer)
    {
        try
        {
            var n = _socket.Receive(buffer, SocketFlags.None, out var error);
            return new IoResult(n, error);
        }
        catch (ObjectDisposedException)
        {
            return IoResult.Failed(SocketError.OperationAborted);
        }
    }

    public ValueTask ShutdownSendAsync()
    {
        ShutdownSend();
        return ValueTask.CompletedTask;
    }

    private void ShutdownSend()
    {
        if (Volatile.Read(ref _closed) != 0)
            return;
        try
        {
            _socket.Shutdown(SocketShutdown.Send);
        }
        catch (SocketException)
        {
            // Already reset by the peer: nothing left to flush.
        }
        catch (ObjectDisposedException)
        {
        }
    }

    public void Close()
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
            return;
        // Dispose (not Close with a linger) so a pending receive or send completes at once with OperationAborted.
        _socket.Dispose();
    }

    void IDisposable.Dispose()
    {
        SetBuffer(null, 0, 0);
        Dispose();
        _sendArgs?.ClearBuffers();
        _sendArgs?.Dispose();
    }
}
