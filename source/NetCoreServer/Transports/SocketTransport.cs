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
internal sealed class SocketTransport : IStreamTransport
{
    private readonly Socket _socket;
    private readonly AwaitableSocketArgs _receiveArgs = new();
    // Made by the first asynchronous send (one sender at a time, see IStreamTransport): an idle connection needs none.
    private AwaitableSocketArgs? _sendArgs;
    private int _closed;

    public SocketTransport(Socket socket)
    {
        _socket = socket;
    }

    public Socket Socket => _socket;

    public ITlsInfo? Tls => null;

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer)
    {
        if (Volatile.Read(ref _closed) != 0)
            return new ValueTask<IoResult>(IoResult.Failed(SocketError.OperationAborted));
        return _receiveArgs.ReceiveAsync(_socket, buffer);
    }

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
    {
        if (Volatile.Read(ref _closed) != 0)
        {
            result = IoResult.Failed(SocketError.OperationAborted);
            return true;
        }
        return _receiveArgs.TryReceive(_socket, buffer, completion, out result);
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

    public void Dispose()
    {
        _receiveArgs.ClearBuffers();
        _receiveArgs.Dispose();
        _sendArgs?.ClearBuffers();
        _sendArgs?.Dispose();
    }
}
