using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace NetCoreServer.Transports;

/// <summary>
/// A reusable SocketAsyncEventArgs that can be awaited. One instance serves one direction of one socket for
/// its whole life, so an operation that completes synchronously costs no allocation and one that completes
/// later costs none either (the continuation is stored in the reusable core).
/// </summary>
internal sealed class AwaitableSocketArgs : SocketAsyncEventArgs, IValueTaskSource<IoResult>
{
    private ManualResetValueTaskSourceCore<IoResult> _core;

    public AwaitableSocketArgs()
        : base(unsafeSuppressExecutionContextFlow: true)
    {
        // Completions already arrive on a pool thread; running the engine's continuation there saves a hop.
        _core.RunContinuationsAsynchronously = false;
    }

    public ValueTask<IoResult> ReceiveAsync(Socket socket, Memory<byte> buffer)
    {
        _core.Reset();
        if (BufferList != null)
            BufferList = null;
        SetBuffer(buffer);
        return Run(socket, static (s, e) => s.ReceiveAsync(e));
    }

    public ValueTask<IoResult> SendAsync(Socket socket, IReadOnlyList<ArraySegment<byte>> batch)
    {
        _core.Reset();
        if (batch.Count == 1)
        {
            if (BufferList != null)
                BufferList = null;
            SetBuffer(batch[0].AsMemory());
        }
        else
        {
            SetBuffer(null, 0, 0);
            BufferList = (IList<ArraySegment<byte>>)batch;
        }
        return Run(socket, static (s, e) => s.SendAsync(e));
    }

    /// <summary>Sends one datagram to <paramref name="target"/>.</summary>
    public ValueTask<IoResult> SendToAsync(Socket socket, EndPoint target, ReadOnlyMemory<byte> datagram)
    {
        _core.Reset();
        RemoteEndPoint = target;
        // The socket only reads a send buffer; the cast away from read-only never leads to a write.
        SetBuffer(System.Runtime.InteropServices.MemoryMarshal.AsMemory(datagram));
        return Run(socket, static (s, e) => s.SendToAsync(e));
    }

    public ValueTask<IoResult> AcceptAsync(Socket listener)
    {
        _core.Reset();
        AcceptSocket = null;
        return Run(listener, static (s, e) => s.AcceptAsync(e));
    }

    public ValueTask<IoResult> ConnectAsync(Socket socket, EndPoint endpoint)
    {
        _core.Reset();
        RemoteEndPoint = endpoint;
        return Run(socket, static (s, e) => s.ConnectAsync(e));
    }

    /// <summary>Connects by host name, trying every address the name resolves to; the socket is in <see cref="SocketAsyncEventArgs.ConnectSocket"/>.</summary>
    public ValueTask<IoResult> ConnectByNameAsync(DnsEndPoint endpoint)
    {
        _core.Reset();
        RemoteEndPoint = endpoint;
        bool pending;
        try
        {
            pending = Socket.ConnectAsync(SocketType.Stream, ProtocolType.Tcp, this);
        }
        catch (SocketException e)
        {
            return new ValueTask<IoResult>(IoResult.Failed(e.SocketErrorCode));
        }
        return pending ? new ValueTask<IoResult>(this, _core.Version) : new ValueTask<IoResult>(Result());
    }

    /// <summary>Releases the buffer references held by the args so the arrays can be pooled again.</summary>
    public void ClearBuffers()
    {
        if (BufferList != null)
            BufferList = null;
        SetBuffer(null, 0, 0);
    }

    protected override void OnCompleted(SocketAsyncEventArgs e) => _core.SetResult(Result());

    IoResult IValueTaskSource<IoResult>.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<IoResult>.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<IoResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);

    private ValueTask<IoResult> Run(Socket socket, Func<Socket, SocketAsyncEventArgs, bool> start)
    {
        if (Start(socket, this, start, out var failure))
            return new ValueTask<IoResult>(this, _core.Version);
        return new ValueTask<IoResult>(failure == SocketError.Success ? Result() : IoResult.Failed(failure));
    }

    /// <summary>
    /// Starts a socket operation on <paramref name="args"/>, the exceptions of a closed or misused socket turned into
    /// errors: true when it is pending; false when it completed at once (<paramref name="failure"/> is Success: the
    /// result is in the args) or could not start (<paramref name="failure"/> says why).
    /// </summary>
    public static bool Start(Socket socket, SocketAsyncEventArgs args, Func<Socket, SocketAsyncEventArgs, bool> start, out SocketError failure)
    {
        failure = SocketError.Success;
        try
        {
            return start(socket, args);
        }
        catch (InvalidOperationException)
        {
            // The socket was closed between the state check and the call.
            failure = SocketError.OperationAborted;
        }
        catch (Exception exception) when (SocketErrors.FromException(exception, out failure))
        {
        }
        return false;
    }

    private IoResult Result() => new(BytesTransferred, SocketError);
}
