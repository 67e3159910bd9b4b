using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;
using NetCoreServer.Core;

namespace NetCoreServer.Transports;

/// <summary>
/// A reusable SocketAsyncEventArgs that can be awaited. One instance serves one direction of one socket for
/// its whole life, so an operation that completes synchronously costs no allocation and one that completes
/// later costs none either (the continuation is stored in the reusable core). A receive can also report to an
/// <see cref="IReceiveCompletion"/> instead (<see cref="TryReceive"/>), so that a waiting engine needs no state machine.
/// </summary>
internal sealed class AwaitableSocketArgs : SocketAsyncEventArgs, IValueTaskSource<IoResult>
{
    private ManualResetValueTaskSourceCore<IoResult> _core;
    // Set while a receive started by TryReceive is pending: its completion goes there instead of to _core.
    private IReceiveCompletion? _completion;

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

    /// <summary>
    /// Starts a receive: true when it completed at once (<paramref name="result"/>), false when it is pending and
    /// <paramref name="completion"/> will be told, on the thread that completes it.
    /// </summary>
    public bool TryReceive(Socket socket, Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
    {
        if (BufferList != null)
            BufferList = null;
        SetBuffer(buffer);
        // Set before the start: a pending receive may complete on another thread before ReceiveAsync returns.
        _completion = completion;
        if (Start(socket, static (s, e) => s.ReceiveAsync(e), out result))
            return false;
        _completion = null;
        return true;
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

    /// <summary>True when the last datagram receive filled the buffer and the kernel dropped the datagram's tail.</summary>
    public bool Truncated => (SocketFlags & SocketFlags.Truncated) != 0;

    /// <summary>
    /// Receives one datagram. <see cref="SocketAsyncEventArgs.RemoteEndPoint"/> must already hold an endpoint of the
    /// socket's family; it is deliberately left as the last sender between calls, because the runtime then reuses
    /// that object when the next datagram comes from the same peer instead of allocating a new one.
    /// </summary>
    public ValueTask<IoResult> ReceiveFromAsync(Socket socket, Memory<byte> buffer)
    {
        _core.Reset();
        SetBuffer(buffer);
        return Run(socket, static (s, e) => s.ReceiveFromAsync(e));
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

    protected override void OnCompleted(SocketAsyncEventArgs e)
    {
        var completion = _completion;
        if (completion == null)
        {
            _core.SetResult(Result());
            return;
        }
        _completion = null;
        completion.ReceiveCompleted(Result());
    }

    IoResult IValueTaskSource<IoResult>.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<IoResult>.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<IoResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);

    private ValueTask<IoResult> Run(Socket socket, Func<Socket, SocketAsyncEventArgs, bool> start)
        => Start(socket, start, out var result) ? new ValueTask<IoResult>(this, _core.Version) : new ValueTask<IoResult>(result);

    /// <summary>Starts an operation: true when it is pending; otherwise false with how it ended.</summary>
    private bool Start(Socket socket, Func<Socket, SocketAsyncEventArgs, bool> start, out IoResult result)
    {
        bool pending;
        try
        {
            pending = start(socket, this);
        }
        catch (ObjectDisposedException)
        {
            result = IoResult.Failed(SocketError.OperationAborted);
            return false;
        }
        catch (SocketException e)
        {
            result = IoResult.Failed(e.SocketErrorCode);
            return false;
        }
        catch (InvalidOperationException)
        {
            // The socket was closed between the state check and the call.
            result = IoResult.Failed(SocketError.OperationAborted);
            return false;
        }
        catch (ArgumentException)
        {
            // A datagram target of the wrong address family (IPv6 on an IPv4 socket, or IPv4 without dual mode).
            result = IoResult.Failed(SocketError.AddressFamilyNotSupported);
            return false;
        }
        result = pending ? default : Result();
        return pending;
    }

    private IoResult Result() => new(BytesTransferred, SocketError);
}
