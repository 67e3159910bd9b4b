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
    private static readonly Func<Socket, SocketAsyncEventArgs, bool> s_receive = static (socket, args) => socket.ReceiveAsync(args);

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
        if (AwaitableSocketArgs.Start(_socket, this, s_receive, out var failure))
        {
            result = default;
            return false;
        }
        result = failure == SocketError.Success ? new IoResult(BytesTransferred, SocketError) : IoResult.Failed(failure);
        _completion = null;
        return true;
    }

    protected override void OnCompleted(SocketAsyncEventArgs e)
    {
        var completion = _completion!;
        _completion = null;
        completion.ReceiveCompleted(new IoResult(BytesTransferred, SocketError));
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
