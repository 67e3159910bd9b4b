using System;
using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Udp;

/// <summary>
/// The receive side of a datagram socket: the one receive loop, in both modes (the runtime's socket engine, or a
/// receive thread with blocking calls), when to receive (<see cref="ReceiveGate"/>: NetCoreServer's one-shot
/// ReceiveAsync or continuous), and the blocking Receive. The loop alone uses its buffer and its endpoints by sender;
/// parked, it holds no buffer.
/// </summary>
internal sealed class DatagramReceiver
{
    // After this many failed receives in a row the loop pauses between attempts instead of spinning on a broken socket.
    private const int ErrorsBeforeBackoff = 16;
    private static readonly TimeSpan s_errorBackoff = TimeSpan.FromMilliseconds(100);

    private readonly Socket _socket;
    private readonly DatagramOptions _options;
    private readonly DatagramHooks _hooks;
    private readonly DatagramCounters _counters;
    private readonly ReceiveGate _gate = new();

    // Read when the engine is made: the socket is served by the runtime's engine or by its own thread, never both.
    private readonly bool _threaded;

    public DatagramReceiver(Socket socket, DatagramOptions options, DatagramHooks hooks, DatagramCounters counters)
    {
        _socket = socket;
        _options = options;
        _hooks = hooks;
        _counters = counters;
        _threaded = options.ReceiveThread;
    }

    /// <summary>What the loop does next after one receive.</summary>
    private enum Step
    {
        /// <summary>Receive again.</summary>
        Next,

        /// <summary>Receive again after <see cref="s_errorBackoff"/> (failures in a row).</summary>
        Backoff,

        /// <summary>Give the buffer back and wait for a request (one-shot mode).</summary>
        Park,

        /// <summary>The socket is closed: the loop ends.</summary>
        End,
    }

    /// <summary>The "any sender" endpoint of a family, used as the template the runtime fills on receive.</summary>
    public static EndPoint AnyEndpoint(AddressFamily family)
        => new IPEndPoint(family == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any, 0);

    /// <summary>NetCoreServer's ReceiveAsync: asks for the next datagram (see <see cref="ReceiveGate.Request"/>).</summary>
    public void Request() => _gate.Request();

    /// <summary>No more receiving: a parked loop ends at once (inline on this thread), a busy one when it next looks.</summary>
    public void Close() => _gate.Close();

    /// <summary>Starts the loop: on a thread of its own in threaded mode, else as an async loop that parks at once.</summary>
    /// <returns>Completes when the loop has ended.</returns>
    public Task Start() => _threaded ? StartThread() : ReceiveLoopAsync();

    /// <summary>Blocking receive of one datagram: its size, or -1 when closed or failed (errors worth it are reported).</summary>
    public int ReceiveBlocking(ref EndPoint endpoint, Span<byte> buffer)
    {
        if (_gate.IsClosed)
            return -1;
        if (endpoint is not IPEndPoint ip || ip.AddressFamily != _socket.AddressFamily)
            endpoint = AnyEndpoint(_socket.AddressFamily);
        int received;
        try
        {
            received = _socket.ReceiveFrom(buffer, SocketFlags.None, ref endpoint);
        }
        catch (SocketException e)
        {
            return _hooks.BlockingFailed(e.SocketErrorCode, _gate.IsClosed);
        }
        catch (ObjectDisposedException)
        {
            return -1;
        }
        _counters.CountReceived(received);
        return received;
    }

    /// <summary>
    /// The one receive loop of this socket, in both modes. Served by the runtime's socket engine, a pending receive
    /// returns to the I/O thread, and a receive that completes synchronously (a burst already queued in the kernel) just
    /// goes round the loop again, so no burst can grow the stack. With a receive thread every wait blocks that thread
    /// instead and the loop never leaves it. The sender comes as an address the runtime fills in place, and
    /// <see cref="SenderEndpoints"/> turns it into the endpoint handed out, so datagrams from peers already seen
    /// allocate nothing (the runtime's own endpoint receive reuses only the last sender's endpoint).
    /// </summary>
    private async Task ReceiveLoopAsync()
    {
        byte[]? buffer = null;
        var address = new SocketAddress(_socket.AddressFamily);
        var senders = new SenderEndpoints(AnyEndpoint(_socket.AddressFamily));
        try
        {
            while (true)
            {
                // With a receive thread: a request that wakes the gate completes this wait, it does not run the loop.
                if (_threaded)
                    _gate.WaitAsync().AsTask().Wait();
                else
                    await _gate.WaitAsync().ConfigureAwait(false);
                if (_gate.IsClosed)
                    return;
                var size = _options.EffectiveReceiveBufferSize;
                buffer = ArrayPool<byte>.Shared.Rent(size + 1);
                var failures = 0;
                var step = Step.Next;
                while (step != Step.Park)
                {
                    if (step == Step.End)
                        return;
                    if (step == Step.Backoff)
                    {
                        if (_threaded)
                            Thread.Sleep(s_errorBackoff);
                        else
                            await Task.Delay(s_errorBackoff).ConfigureAwait(false);
                    }
                    IoResult result;
                    if (_threaded)
                    {
                        result = ReceiveFromBlocking(buffer.AsSpan(0, size + 1), address);
                    }
                    else
                    {
                        try
                        {
                            result = new IoResult(await _socket.ReceiveFromAsync(buffer.AsMemory(0, size + 1), SocketFlags.None, address).ConfigureAwait(false), SocketError.Success);
                        }
                        catch (Exception exception) when (SocketErrors.FromException(exception, out var error))
                        {
                            result = IoResult.Failed(error);
                        }
                    }
                    step = AfterReceive(result, size, address, senders, buffer, ref failures);
                }
                ArrayPool<byte>.Shared.Return(buffer);
                buffer = null;
            }
        }
        finally
        {
            _gate.Stop();
            if (buffer != null)
                ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>
    /// Handles what one receive brought: an oversized datagram (truncated by the kernel) is dropped and reported, an
    /// error reported when worth it (a teardown error ends the loop), a datagram delivered. The loop asks for one byte
    /// more than the limit, so a longer datagram is told apart from one of exactly the limit.
    /// </summary>
    /// <param name="result">The receive's outcome.</param>
    /// <param name="size">The limit: a datagram longer than this was truncated by the kernel.</param>
    /// <param name="address">Who sent it, as the receive filled it in (read only when the receive succeeded).</param>
    /// <param name="senders">The loop's endpoints by sender.</param>
    /// <param name="buffer">The datagram, from offset 0.</param>
    /// <param name="failures">Failed receives in a row, kept by the loop.</param>
    private Step AfterReceive(IoResult result, int size, SocketAddress address, SenderEndpoints senders, byte[] buffer, ref int failures)
    {
        var truncated = result.Bytes > size;
        if (_gate.IsClosed)
            return Step.End;
        if (result.Error == SocketError.MessageSize || (result.Succeeded && truncated))
        {
            // Longer than OptionReceiveBufferLimit: the kernel kept only the head. Drop it rather than deliver half.
            _hooks.Error(SocketError.MessageSize);
            return Step.Next;
        }
        if (!result.Succeeded)
        {
            if (DatagramErrors.IsTeardown(result.Error))
                return Step.End;
            if (DatagramErrors.IsReportable(result.Error))
                _hooks.Error(result.Error);
            return ++failures >= ErrorsBeforeBackoff ? Step.Backoff : Step.Next;
        }
        failures = 0;
        _counters.CountReceived(result.Bytes);
        _gate.Deliver();
        _hooks.Received(senders.EndpointOf(address), buffer, result.Bytes);
        if (_gate.IsClosed)
            return Step.End;
        return KeepReceiving() ? Step.Next : Step.Park;
    }

    /// <summary>After a delivery: continue in continuous mode or when ReceiveAsync was called during OnReceived, otherwise park.</summary>
    private bool KeepReceiving()
    {
        if (!_options.ContinuousReceive)
            return _gate.ParkUnlessRequested();
        _gate.Continue();
        return true;
    }

    /// <summary>
    /// Starts the receive thread (see transports.md, "UDP: the receive thread"), which runs <see cref="ReceiveLoopAsync"/>:
    /// in this mode every wait in it blocks, so the loop never leaves the thread and its task has completed when the
    /// thread ends. The returned task completes then.
    /// </summary>
    private Task StartThread()
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(static state =>
        {
            var (receiver, done) = ((DatagramReceiver, TaskCompletionSource))state!;
            try
            {
                receiver.ReceiveLoopAsync().GetAwaiter().GetResult();
                done.TrySetResult();
            }
            catch (Exception exception)
            {
                // A fault in the engine's own code (hooks cannot throw into it): the loop ends, as the async one would.
                done.TrySetException(exception);
            }
        })
        {
            IsBackground = true,
            Name = "NetCoreServer UDP receive",
        };
        // The thread outlives the caller: it does not take the caller's execution context.
        thread.UnsafeStart((this, done));
        return done.Task;
    }

    /// <summary>One blocking receive; errors as values (a closed socket as <see cref="SocketError.OperationAborted"/>).</summary>
    private IoResult ReceiveFromBlocking(Span<byte> buffer, SocketAddress address)
    {
        try
        {
            return new IoResult(_socket.ReceiveFrom(buffer, SocketFlags.None, address), SocketError.Success);
        }
        catch (Exception exception) when (SocketErrors.FromException(exception, out var error))
        {
            return IoResult.Failed(error);
        }
    }
}
