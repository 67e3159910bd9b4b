using System;
using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Udp;

internal sealed partial class DatagramEngine
{
    // After this many failed receives in a row the loop pauses between attempts instead of spinning on a broken socket.
    private const int ErrorsBeforeBackoff = 16;
    private static readonly TimeSpan s_errorBackoff = TimeSpan.FromMilliseconds(100);

    private readonly ReceiveGate _receiveGate = new();

    /// <summary>NetCoreServer's ReceiveAsync: asks for the next datagram (see <see cref="ReceiveGate.Request"/>).</summary>
    public void RequestReceive() => _receiveGate.Request();

    /// <summary>Blocking receive of one datagram: its size, or -1 when closed or failed (errors worth it are reported).</summary>
    public int ReceiveBlocking(ref EndPoint endpoint, Span<byte> buffer)
    {
        if (_closed)
            return -1;
        if (endpoint is not IPEndPoint ip || ip.AddressFamily != Socket.AddressFamily)
            endpoint = AnyEndpoint(Socket.AddressFamily);
        int received;
        try
        {
            received = Socket.ReceiveFrom(buffer, SocketFlags.None, ref endpoint);
        }
        catch (SocketException e)
        {
            return BlockingFailed(e.SocketErrorCode);
        }
        catch (ObjectDisposedException)
        {
            return -1;
        }
        Interlocked.Increment(ref _datagramsReceived);
        Interlocked.Add(ref _bytesReceived, received);
        return received;
    }

    /// <summary>
    /// The one receive loop of this socket, in both modes. Served by the runtime's socket engine, a pending receive
    /// returns to the I/O thread, and a receive that completes synchronously (a burst already queued in the kernel) just
    /// goes round the loop again, so no burst can grow the stack. With a receive thread (DatagramEngine.Thread.cs) every
    /// wait blocks that thread instead and the loop never leaves it. Parked, it holds no buffer. The sender comes as
    /// an address the runtime fills in place, and <see cref="SenderEndpoints"/> turns it into the endpoint handed out,
    /// so datagrams from peers already seen allocate nothing (the runtime's own endpoint receive reuses only the last
    /// sender's endpoint).
    /// </summary>
    private async Task ReceiveLoopAsync()
    {
        byte[]? buffer = null;
        var address = new SocketAddress(Socket.AddressFamily);
        var senders = new SenderEndpoints(AnyEndpoint(Socket.AddressFamily));
        try
        {
            while (true)
            {
                // With a receive thread: a request that wakes the gate completes this wait, it does not run the loop.
                if (_threaded)
                    _receiveGate.WaitAsync().AsTask().Wait();
                else
                    await _receiveGate.WaitAsync().ConfigureAwait(false);
                if (_closed)
                    return;
                var size = _options.EffectiveReceiveBufferSize;
                buffer = ArrayPool<byte>.Shared.Rent(size + 1);
                var failures = 0;
                var step = ReceiveStep.Next;
                while (step != ReceiveStep.Park)
                {
                    if (step == ReceiveStep.End)
                        return;
                    if (step == ReceiveStep.Backoff)
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
                            result = new IoResult(await Socket.ReceiveFromAsync(buffer.AsMemory(0, size + 1), SocketFlags.None, address).ConfigureAwait(false), SocketError.Success);
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
            _receiveGate.Stop();
            if (buffer != null)
                ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>What a receive loop does next after one receive.</summary>
    private enum ReceiveStep
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

    /// <summary>
    /// Handles what one receive brought, for both kinds of loop: an oversized datagram (truncated by the kernel) is
    /// dropped and reported, an error reported when worth it (a teardown error ends the loop), a datagram delivered.
    /// Each loop asks for one byte more than the limit, so a longer datagram is told apart from one of exactly the limit.
    /// </summary>
    /// <param name="result">The receive's outcome.</param>
    /// <param name="size">The limit: a datagram longer than this was truncated by the kernel.</param>
    /// <param name="address">Who sent it, as the receive filled it in (read only when the receive succeeded).</param>
    /// <param name="senders">The loop's endpoints by sender.</param>
    /// <param name="buffer">The datagram, from offset 0.</param>
    /// <param name="failures">Failed receives in a row, kept by the loop.</param>
    private ReceiveStep AfterReceive(IoResult result, int size, SocketAddress address, SenderEndpoints senders, byte[] buffer, ref int failures)
    {
        var truncated = result.Bytes > size;
        if (_closed)
            return ReceiveStep.End;
        if (result.Error == SocketError.MessageSize || (result.Succeeded && truncated))
        {
            // Longer than OptionReceiveBufferLimit: the kernel kept only the head. Drop it rather than deliver half.
            RaiseError(SocketError.MessageSize);
            return ReceiveStep.Next;
        }
        if (!result.Succeeded)
        {
            if (DatagramErrors.IsTeardown(result.Error))
                return ReceiveStep.End;
            if (DatagramErrors.IsReportable(result.Error))
                RaiseError(result.Error);
            return ++failures >= ErrorsBeforeBackoff ? ReceiveStep.Backoff : ReceiveStep.Next;
        }
        failures = 0;
        Interlocked.Increment(ref _datagramsReceived);
        Interlocked.Add(ref _bytesReceived, result.Bytes);
        _receiveGate.Deliver();
        RaiseReceived(senders.EndpointOf(address), buffer, result.Bytes);
        if (_closed)
            return ReceiveStep.End;
        return KeepReceiving() ? ReceiveStep.Next : ReceiveStep.Park;
    }

    /// <summary>After a delivery: continue in continuous mode or when ReceiveAsync was called during OnReceived, otherwise park.</summary>
    private bool KeepReceiving()
    {
        if (!_options.ContinuousReceive)
            return _receiveGate.ParkUnlessRequested();
        _receiveGate.Continue();
        return true;
    }
}
