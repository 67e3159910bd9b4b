using System;
using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp;

internal sealed partial class DatagramEngine
{
    // Receive loop states, as in NetCoreServer where at most one receive is outstanding. Parked: nothing wanted, the
    // loop waits for ReceiveAsync. Wanted: a datagram is wanted (the receive is pending); more ReceiveAsync calls
    // change nothing. Delivering: a datagram is in OnReceived. Requested: ReceiveAsync was called during delivery,
    // so the next datagram is wanted as soon as OnReceived returns.
    private const int ReceiveParked = 0;
    private const int ReceiveWanted = 1;
    private const int ReceiveDelivering = 2;
    private const int ReceiveRequested = 3;
    private const int ReceiveStopped = 4;

    // After this many failed receives in a row the loop pauses between attempts instead of spinning on a broken socket.
    private const int ErrorsBeforeBackoff = 16;
    private static readonly TimeSpan s_errorBackoff = TimeSpan.FromMilliseconds(100);

    private readonly NetCoreServer.Transports.AwaitableSocketArgs _receiveArgs = new();
    private readonly LoopSignal _receiveSignal = new();
    private int _receiveState = ReceiveParked;

    /// <summary>
    /// NetCoreServer's ReceiveAsync: asks for the next datagram. Calls made while a receive is already pending change
    /// nothing. Never recurses: during OnReceived it only records the request, and the loop picks it up when the hook
    /// returns. When the loop is parked it continues inline on this thread until the receive is
    /// pending, so a datagram already waiting is delivered before this returns (as in NetCoreServer).
    /// </summary>
    public void RequestReceive()
    {
        while (!_closed)
        {
            switch (Volatile.Read(ref _receiveState))
            {
                case ReceiveParked:
                    if (Interlocked.CompareExchange(ref _receiveState, ReceiveWanted, ReceiveParked) == ReceiveParked)
                    {
                        _receiveSignal.Set();
                        return;
                    }
                    break;
                case ReceiveDelivering:
                    if (Interlocked.CompareExchange(ref _receiveState, ReceiveRequested, ReceiveDelivering) == ReceiveDelivering)
                        return;
                    break;
                default:
                    return;
            }
        }
    }

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
            if (!_closed && DatagramErrors.IsReportable(e.SocketErrorCode))
                ReportInline(e.SocketErrorCode);
            return -1;
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
    /// The one receive loop of this socket. A pending receive returns to the I/O thread; a receive that completes
    /// synchronously (a burst already queued in the kernel) just goes round the loop again, so no burst can grow the
    /// stack. Parked, it holds no buffer.
    /// </summary>
    private async Task ReceiveLoopAsync()
    {
        byte[]? buffer = null;
        try
        {
            while (true)
            {
                await _receiveSignal.WaitAsync().ConfigureAwait(false);
                if (_closed)
                    return;
                var size = _options.EffectiveReceiveBufferSize;
                buffer = ArrayPool<byte>.Shared.Rent(size);
                var failures = 0;
                while (true)
                {
                    var result = await _receiveArgs.ReceiveFromAsync(Socket, buffer.AsMemory(0, size)).ConfigureAwait(false);
                    if (_closed)
                        return;
                    if (result.Error == SocketError.MessageSize || (result.Succeeded && _receiveArgs.Truncated))
                    {
                        // Longer than OptionReceiveBufferLimit: the kernel kept only the head. Drop it rather than deliver half.
                        RaiseError(SocketError.MessageSize);
                        continue;
                    }
                    if (!result.Succeeded)
                    {
                        if (DatagramErrors.IsTeardown(result.Error))
                            return;
                        if (DatagramErrors.IsReportable(result.Error))
                            RaiseError(result.Error);
                        if (++failures >= ErrorsBeforeBackoff)
                            await Task.Delay(s_errorBackoff).ConfigureAwait(false);
                        continue;
                    }
                    failures = 0;
                    Interlocked.Increment(ref _datagramsReceived);
                    Interlocked.Add(ref _bytesReceived, result.Bytes);
                    // Only this loop leaves Wanted, so a plain exchange is enough.
                    Interlocked.Exchange(ref _receiveState, ReceiveDelivering);
                    RaiseReceived(_receiveArgs.RemoteEndPoint!, buffer, result.Bytes);
                    if (_closed)
                        return;
                    if (!KeepReceiving())
                        break;
                }
                ArrayPool<byte>.Shared.Return(buffer);
                buffer = null;
            }
        }
        finally
        {
            Volatile.Write(ref _receiveState, ReceiveStopped);
            _receiveArgs.ClearBuffers();
            _receiveArgs.Dispose();
            if (buffer != null)
                ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>
    /// After a delivery: continue in continuous mode or when ReceiveAsync was called during OnReceived (state back to
    /// Wanted), otherwise park. A close that lands after the loop's last closed check but before Parked is published
    /// finds nothing to wake, so the loop looks at closed again once Parked is published; whichever side comes second
    /// sees the other and wakes the loop, and the CompareExchange from Parked makes that exactly one wake-up.
    /// </summary>
    private bool KeepReceiving()
    {
        if (_options.ContinuousReceive)
        {
            Interlocked.Exchange(ref _receiveState, ReceiveWanted);
            return true;
        }
        // Reset before publishing Parked: a waker may Set as soon as it sees Parked.
        _receiveSignal.Reset();
        TestProbe?.Invoke(EngineTestPoint.ReceiverParking);
        while (true)
        {
            if (Interlocked.CompareExchange(ref _receiveState, ReceiveWanted, ReceiveRequested) == ReceiveRequested)
                return true;
            if (Interlocked.CompareExchange(ref _receiveState, ReceiveParked, ReceiveDelivering) == ReceiveDelivering)
                break;
        }
        // The exchange above is a full fence, as is Close's exchange after it sets closed: at least one of the two
        // sees the other's write.
        if (_closed && Interlocked.CompareExchange(ref _receiveState, ReceiveWanted, ReceiveParked) == ReceiveParked)
            _receiveSignal.Set();
        return false;
    }
}
