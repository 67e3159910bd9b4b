using System;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;
using NetCoreServer.Core;

namespace NetCoreServer.Udp;

/// <summary>
/// A reusable, awaitable SocketAsyncEventArgs for one direction (receive or send) of one datagram socket. A
/// synchronous completion returns a completed ValueTask, so the caller's loop simply iterates; nothing recurses
/// and nothing is allocated per datagram.
/// </summary>
internal sealed class DatagramSocketArgs : SocketAsyncEventArgs, IValueTaskSource<IoResult>
{
    private ManualResetValueTaskSourceCore<IoResult> _core;

    public DatagramSocketArgs()
        : base(unsafeSuppressExecutionContextFlow: true)
    {
        // Completions already arrive on a pool I/O thread; continuing there saves a thread hop.
        _core.RunContinuationsAsynchronously = false;
    }

    /// <summary>True when the last receive filled the buffer and the kernel dropped the datagram's tail.</summary>
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

    public ValueTask<IoResult> SendToAsync(Socket socket, EndPoint target, ReadOnlyMemory<byte> datagram)
    {
        _core.Reset();
        RemoteEndPoint = target;
        // The socket only reads a send buffer; the cast away from read-only never leads to a write.
        SetBuffer(MemoryMarshal.AsMemory(datagram));
        return Run(socket, static (s, e) => s.SendToAsync(e));
    }

    /// <summary>Drops the reference to a pooled buffer once it has been returned.</summary>
    public void ClearBuffer() => SetBuffer(null, 0, 0);

    protected override void OnCompleted(SocketAsyncEventArgs e) => _core.SetResult(Result());

    IoResult IValueTaskSource<IoResult>.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<IoResult>.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<IoResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);

    private ValueTask<IoResult> Run(Socket socket, Func<Socket, SocketAsyncEventArgs, bool> start)
    {
        bool pending;
        try
        {
            pending = start(socket, this);
        }
        catch (ObjectDisposedException)
        {
            return new ValueTask<IoResult>(IoResult.Failed(SocketError.OperationAborted));
        }
        catch (SocketException e)
        {
            return new ValueTask<IoResult>(IoResult.Failed(e.SocketErrorCode));
        }
        catch (InvalidOperationException)
        {
            // The socket was closed between the state check and the call.
            return new ValueTask<IoResult>(IoResult.Failed(SocketError.OperationAborted));
        }
        catch (ArgumentException)
        {
            // A target of the wrong address family (an IPv6 endpoint on an IPv4 socket, or IPv4 without dual mode).
            return new ValueTask<IoResult>(IoResult.Failed(SocketError.AddressFamilyNotSupported));
        }
        return pending ? new ValueTask<IoResult>(this, _core.Version) : new ValueTask<IoResult>(Result());
    }

    private IoResult Result() => new(BytesTransferred, SocketError);
}
