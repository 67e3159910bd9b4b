using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Transports;

/// <summary>
/// Stream transport over a connected socket on SocketAsyncEventArgs. Serves TCP and Unix domain sockets
/// alike: they differ only by the endpoint the socket was created for.
/// </summary>
/// <remarks>
/// The transport is itself the SocketAsyncEventArgs of its receives and reports a pending one straight to the engine
/// (<see cref="TryReceive"/>), so an idle connection waits with this one object. Its own state lives in slots a receive
/// leaves alone: the socket in <see cref="SocketAsyncEventArgs.AcceptSocket"/>, the pending receive's completion in
/// <see cref="SocketAsyncEventArgs.UserToken"/>, the admitted endpoint in <see cref="SocketAsyncEventArgs.RemoteEndPoint"/>;
/// a call on the closed socket fails as an aborted one (see <see cref="AwaitableSocketArgs.Start"/>). The bytes each of
/// these saves are in docs/design/transports.md.
/// </remarks>
internal sealed class SocketTransport : SocketAsyncEventArgs, IStreamTransport
{
    private static readonly Func<Socket, SocketAsyncEventArgs, bool> s_receive = static (socket, args) => socket.ReceiveAsync(args);

    // Made by the first asynchronous send (one sender at a time, see IStreamTransport): an idle connection needs none.
    private AwaitableSocketArgs? _sendArgs;

    public SocketTransport(Socket socket)
        : base(unsafeSuppressExecutionContextFlow: true)
    {
        AcceptSocket = socket;
    }

    public Socket Socket => AcceptSocket!;

    public ITlsInfo? Tls => null;

    EndPoint? IStreamTransport.AdmittedEndPoint
    {
        get => RemoteEndPoint;
        set => RemoteEndPoint = value;
    }

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
    {
        SetBuffer(buffer);
        // Set before the start: a pending receive may complete on another thread before ReceiveAsync returns.
        UserToken = completion;
        if (AwaitableSocketArgs.Start(Socket, this, s_receive, out var failure))
        {
            result = default;
            return false;
        }
        result = failure == SocketError.Success ? new IoResult(BytesTransferred, SocketError) : IoResult.Failed(failure);
        return true;
    }

    protected override void OnCompleted(SocketAsyncEventArgs e)
    {
        // The same completion (the engine) for every receive: left in place, it keeps nothing alive that is not already.
        var completion = (IReceiveCompletion)UserToken!;
        completion.ReceiveCompleted(new IoResult(BytesTransferred, SocketError));
    }

    public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
    {
        return (_sendArgs ??= new AwaitableSocketArgs()).SendAsync(Socket, batch);
    }

    public IoResult Send(ReadOnlySpan<byte> data) => BlockingCalls.Send(Socket, data);

    public IoResult Receive(Span<byte> buffer) => BlockingCalls.Receive(Socket, buffer);

    public ValueTask ShutdownSendAsync()
    {
        ShutdownSend();
        return ValueTask.CompletedTask;
    }

    private void ShutdownSend()
    {
        try
        {
            Socket.Shutdown(SocketShutdown.Send);
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
        // Dispose (not Close with a linger) so a pending receive or send completes at once with OperationAborted.
        Socket.Dispose();
    }

    void IDisposable.Dispose()
    {
        SetBuffer(null, 0, 0);
        Dispose();
        _sendArgs?.ClearBuffers();
        _sendArgs?.Dispose();
    }
}
