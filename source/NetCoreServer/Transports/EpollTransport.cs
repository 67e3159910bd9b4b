using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace NetCoreServer.Transports;

/// <summary>
/// Stream transport over a connected socket served by one of the library's own <see cref="EventLoop"/>s instead of the
/// runtime's socket engine (the <c>OptionEventLoops</c> of servers and clients; Linux only). The socket is non-blocking
/// and registered once, edge-triggered; reads and writes are the socket's plain non-blocking calls, made at once and
/// parked only when they would block. A completion runs on the loop's thread, the engine's loops with it.
/// </summary>
/// <remarks>
/// Per echoed message this is one <c>recv</c> and one <c>send</c> and a share of an <c>epoll_wait</c>, what a C epoll
/// server makes: no zero-byte peek, no re-arming, no hand-off to another thread. Edge-triggered readiness is kept
/// here: an edge marks the socket readable, a read that comes back short or would block marks it drained, but only if
/// no edge came in the meantime (counted in <see cref="_readEdges"/>, the same for writes), so an edge is never lost
/// between a read and the mark; an edge that comes during a read on the loop's own thread waits in the epoll set until
/// the loop looks again. Once the peer's end of stream or urgent data was announced, reads go on until one would
/// block: a read stops before either, and their one edge may have come with the data a short read took. Every change
/// of that state, and the parking and taking of a pending operation, is under <see cref="_gate"/>: the loop's thread
/// and the engine's callers meet there.
/// </remarks>
internal sealed class EpollTransport : IStreamTransport, IValueTaskSource<IoResult>
{
    // The runtime's gathered send takes up to this many segments without allocating (it stack-allocates their handles).
    private const int MaxGather = 8;

    private readonly Socket _socket;
    private readonly EventLoop _loop;
    private readonly int _fd;
    private ManualResetValueTaskSourceCore<IoResult> _send;

    // Reads a connection makes in a row on its loop's thread before the others get their turn.
    private const int ReadsPerTurn = 16;

    // Guards the state below: the loop's thread and the engine's callers meet here. Not the transport itself, whose
    // header may hold the identity hash of the idle sweep's key (see GetHashCode).
    private readonly object _gate = new();

    // Under _gate.
    private bool _closed;
    private bool _readable;
    private bool _readToEnd;
    private int _readEdges;
    private int _writeEdges;

    // Reads since the connection last parked or had its turn (the loop's thread; a stray count elsewhere is harmless).
    private int _reads;
    private Memory<byte> _pendingBuffer;
    private IReceiveCompletion? _pendingReceive;
    private IReadOnlyList<ArraySegment<byte>>? _pendingSend;

    // A batch of more than MaxGather segments is sent from its first ones, copied here.
    private List<ArraySegment<byte>>? _gather;

    /// <summary>
    /// The socket on one of the first <paramref name="eventLoops"/> event loops, or null (the runtime's engine serves it):
    /// when that is 0, when the system has no epoll, or when the socket cannot be registered (e.g. past the system's
    /// limit of watched descriptors).
    /// </summary>
    public static EpollTransport? TryCreate(Socket socket, int eventLoops)
    {
        if (eventLoops <= 0 || !EventLoop.IsSupported)
            return null;
        try
        {
            return new EpollTransport(socket, EventLoop.Pick(eventLoops));
        }
        catch (SocketException)
        {
            socket.Blocking = true;
            return null;
        }
    }

    private EpollTransport(Socket socket, EventLoop loop)
    {
        _socket = socket;
        _loop = loop;
        _send.RunContinuationsAsynchronously = false;
        socket.Blocking = false;
        _fd = (int)socket.Handle;
        // Registering reports what is already there: data that came before this sets the socket readable at once.
        loop.Register(this, _fd);
    }

    private ulong _token;

    /// <summary>
    /// This registration's name in its loop (see <see cref="EventLoop"/>): set by a registering thread, read by the loop's;
    /// volatile, which is atomic for 64 bits on every platform (Interlocked.Read would lock the line on every event).
    /// </summary>
    internal ulong Token
    {
        get => Volatile.Read(ref _token);
        set => Interlocked.Exchange(ref _token, value);
    }

    public Socket Socket => _socket;

    public EndPoint? AdmittedEndPoint { get; set; }

    public ITlsInfo? Tls => null;

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
    {
        int edges;
        lock (_gate)
        {
            if (_closed)
            {
                result = IoResult.Failed(SocketError.OperationAborted);
                return true;
            }
            // Parked while nothing is there, or (on the loop's own thread) once this connection had its turn: it goes
            // on after the loop has looked at its other sockets. Off the loop's thread (an accepting thread's first
            // read, a resume after a backpressure pause) the read is handed to the loop: hooks then run on the loop,
            // as documented, and within its per-turn limit.
            var onLoop = _loop.IsCurrent;
            var turnUsed = _readable && _reads >= ReadsPerTurn && onLoop;
            var handOff = _readable && !onLoop;
            if (!_readable || turnUsed || handOff)
            {
                _pendingBuffer = buffer;
                _pendingReceive = completion;
                _reads = 0;
                if (turnUsed)
                    _loop.Defer(this);
                else if (handOff)
                    _loop.Post(this);
                result = default;
                return false;
            }
            edges = _readEdges;
        }
        // The zero-byte wait asks only whether there is something to read (data, end of stream or an error).
        if (buffer.IsEmpty)
        {
            result = new IoResult(0, SocketError.Success);
            return true;
        }
        result = ReceiveNow(buffer.Span);
        _reads++;
        // A stream read that would block found the socket empty; one that comes back short has emptied it, unless the
        // end of stream or urgent data is announced (a read stops before either, and its one edge may have come already).
        var wouldBlock = result.Error == SocketError.WouldBlock;
        if (wouldBlock || (result.Succeeded && result.Bytes > 0 && result.Bytes < buffer.Length && !_readToEnd))
        {
            lock (_gate)
            {
                if (_readEdges == edges)
                {
                    _readable = false;
                    if (wouldBlock)
                        _readToEnd = false;
                }
            }
        }
        // A read that would block goes back to the engine too: it idles without its buffer (the next call parks).
        return true;
    }

    /// <summary>A receive deferred for fairness or handed over from another thread (see <see cref="TryReceive"/>), on the loop's thread after its next look at the set.</summary>
    internal void RunDeferred()
    {
        IReceiveCompletion? receive;
        Memory<byte> buffer;
        lock (_gate)
        {
            receive = _pendingReceive;
            buffer = _pendingBuffer;
            if (receive == null || !_readable)
                return;
            _pendingReceive = null;
            _pendingBuffer = default;
        }
        if (TryReceive(buffer, receive, out var result))
            receive.ReceiveCompleted(result);
    }

    public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
    {
        while (true)
        {
            var edges = Volatile.Read(ref _writeEdges);
            var result = SendNow(batch);
            if (result.Error != SocketError.WouldBlock)
                return new ValueTask<IoResult>(result);
            lock (_gate)
            {
                if (_closed)
                    return new ValueTask<IoResult>(IoResult.Failed(SocketError.OperationAborted));
                if (_writeEdges != edges)
                    continue;
                // Reset before the batch is parked: the loop may complete it as soon as the lock is released.
                _send.Reset();
                _pendingSend = batch;
                return new ValueTask<IoResult>(this, _send.Version);
            }
        }
    }

    /// <summary>What the socket's edges say, on the loop's thread: a parked send goes on, then a parked receive.</summary>
    internal void OnEvents(uint mask)
    {
        IReadOnlyList<ArraySegment<byte>>? send = null;
        IReceiveCompletion? receive = null;
        Memory<byte> buffer = default;
        lock (_gate)
        {
            if (_closed)
                return;
            if ((mask & (EventLoop.Mask.Out | EventLoop.Mask.Err | EventLoop.Mask.Hup)) != 0)
            {
                _writeEdges++;
                send = _pendingSend;
                _pendingSend = null;
            }
            if ((mask & (EventLoop.Mask.In | EventLoop.Mask.Pri | EventLoop.Mask.RdHup | EventLoop.Mask.Err | EventLoop.Mask.Hup)) != 0)
            {
                _readEdges++;
                _readable = true;
                // The peer's end of stream, or urgent data, waits behind the data and announces itself once.
                if ((mask & (EventLoop.Mask.Pri | EventLoop.Mask.RdHup | EventLoop.Mask.Hup)) != 0)
                    _readToEnd = true;
                receive = _pendingReceive;
                buffer = _pendingBuffer;
                _pendingReceive = null;
                _pendingBuffer = default;
            }
        }
        try
        {
            if (send != null)
                ContinueSend(send);
        }
        finally
        {
            if (receive != null && TryReceive(buffer, receive, out var result))
                receive.ReceiveCompleted(result);
        }
    }

    private void ContinueSend(IReadOnlyList<ArraySegment<byte>> batch)
    {
        while (true)
        {
            var edges = Volatile.Read(ref _writeEdges);
            var result = SendNow(batch);
            if (result.Error == SocketError.WouldBlock)
            {
                lock (_gate)
                {
                    if (_closed)
                    {
                        result = IoResult.Failed(SocketError.OperationAborted);
                    }
                    else if (_writeEdges != edges)
                    {
                        continue;
                    }
                    else
                    {
                        _pendingSend = batch;
                        return;
                    }
                }
            }
            _send.SetResult(result);
            return;
        }
    }

    private IoResult ReceiveNow(Span<byte> buffer)
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

    /// <summary>Sends what the socket takes now; a partial send is a success (the engine sends the rest).</summary>
    private IoResult SendNow(IReadOnlyList<ArraySegment<byte>> batch)
    {
        try
        {
            int n;
            SocketError error;
            if (batch.Count == 1)
            {
                n = _socket.Send(batch[0].AsSpan(), SocketFlags.None, out error);
            }
            else
            {
                n = _socket.Send(Gather(batch), SocketFlags.None, out error);
            }
            return new IoResult(error == SocketError.Success ? n : 0, error);
        }
        catch (ObjectDisposedException)
        {
            return IoResult.Failed(SocketError.OperationAborted);
        }
    }

    private IList<ArraySegment<byte>> Gather(IReadOnlyList<ArraySegment<byte>> batch)
    {
        if (batch.Count <= MaxGather && batch is IList<ArraySegment<byte>> list)
            return list;
        var gather = _gather ??= new List<ArraySegment<byte>>(MaxGather);
        gather.Clear();
        for (var i = 0; i < batch.Count && i < MaxGather; i++)
            gather.Add(batch[i]);
        return gather;
    }

    public IoResult Send(ReadOnlySpan<byte> data) => BlockingCalls.Send(Socket, data);

    public IoResult Receive(Span<byte> buffer) => BlockingCalls.Receive(Socket, buffer);

    public ValueTask ShutdownSendAsync()
    {
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
        return ValueTask.CompletedTask;
    }

    public void Close() => Close(SocketError.OperationAborted);

    /// <summary>
    /// Closes after the loop caught an exception while serving this connection: what was parked ends with a socket error,
    /// which the engine reports through the connection's OnError before it disconnects.
    /// </summary>
    internal void Fault() => Close(SocketError.SocketError);

    private void Close(SocketError error)
    {
        IReceiveCompletion? receive;
        bool send;
        lock (_gate)
        {
            if (_closed)
                return;
            _closed = true;
            receive = _pendingReceive;
            send = _pendingSend != null;
            _pendingReceive = null;
            _pendingBuffer = default;
            _pendingSend = null;
        }
        // Out of the set while the descriptor is still this socket's: a socket the user disposed already has left it.
        var handle = _socket.SafeHandle;
        var held = false;
        try
        {
            handle.DangerousAddRef(ref held);
            _loop.Unregister(this, _fd);
        }
        catch (ObjectDisposedException)
        {
            _loop.Unregister(this, -1);
        }
        finally
        {
            if (held)
                handle.DangerousRelease();
        }
        _socket.Dispose();
        // What was parked ends with the error (aborted for a plain close, as a closed runtime socket's pending calls
        // do), but not inside this call: the caller may hold the engine in a state its loops must not re-enter.
        if (receive != null)
            ThreadPool.UnsafeQueueUserWorkItem(static a => a.receive.ReceiveCompleted(IoResult.Failed(a.error)), (receive, error), preferLocal: false);
        if (send)
            ThreadPool.UnsafeQueueUserWorkItem(static a => a.transport._send.SetResult(IoResult.Failed(a.error)), (transport: this, error), preferLocal: false);
    }

    /// <summary>From the registration's token: taking the identity hash would make the runtime give the transport a sync block.</summary>
    public override int GetHashCode() => Token.GetHashCode();

    /// <summary>Reference equality, as ever; declared beside <see cref="GetHashCode"/>.</summary>
    public override bool Equals(object? obj) => ReferenceEquals(this, obj);

    void IDisposable.Dispose()
    {
        _gather = null;
    }

    IoResult IValueTaskSource<IoResult>.GetResult(short token) => _send.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<IoResult>.GetStatus(short token) => _send.GetStatus(token);

    void IValueTaskSource<IoResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _send.OnCompleted(continuation, state, token, flags);
}
