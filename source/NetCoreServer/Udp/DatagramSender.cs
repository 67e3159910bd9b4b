using System;
using System.Buffers;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Udp;

/// <summary>
/// The send side of a datagram socket: the one send loop, which takes datagrams from the <see cref="DatagramSendQueue"/>
/// and hands them to the socket one by one, and the blocking Send. Synchronous completions go round the loop, never
/// recurse. The loop alone uses the reusable args and the cache of serialized targets.
/// </summary>
internal sealed class DatagramSender
{
    private readonly Socket _socket;
    private readonly DatagramSendQueue _queue;
    private readonly DatagramHooks _hooks;
    private readonly DatagramCounters _counters;
    private readonly AwaitableSocketArgs _args = new();
    private readonly TargetAddresses _targets;

    // With a receive thread the socket stays out of the runtime's socket engine, so sends block too (see transports.md).
    private readonly bool _blocking;

    public DatagramSender(Socket socket, DatagramSendQueue queue, DatagramHooks hooks, DatagramCounters counters, bool blocking)
    {
        _socket = socket;
        _queue = queue;
        _hooks = hooks;
        _counters = counters;
        _blocking = blocking;
        _targets = new TargetAddresses(socket.AddressFamily);
    }

    /// <summary>Blocking send of one datagram: the bytes sent, or -1 when closing or failed (errors worth it are reported).</summary>
    public int SendBlocking(EndPoint target, ReadOnlySpan<byte> datagram)
    {
        if (_queue.IsClosing)
            return -1;
        var result = SendToBlocking(target, datagram);
        if (!result.Succeeded)
            return _hooks.BlockingFailed(result.Error, _queue.IsClosed);
        _counters.CountSent(result.Bytes);
        return result.Bytes;
    }

    /// <summary>
    /// The send loop: parks in the queue when it is empty and ends when the queue closes, or when the socket fails for
    /// good (then the queue refuses and drops everything).
    /// </summary>
    public async Task RunAsync()
    {
        try
        {
            while (true)
            {
                var step = _queue.Take(out var next);
                if (step == DatagramSendQueue.Step.End)
                    return;
                if (step == DatagramSendQueue.Step.Park)
                {
                    await _queue.WaitAsync().ConfigureAwait(false);
                    continue;
                }

                // Blocking mode sends in place (it blocks only while the kernel's send buffer is full). Otherwise a
                // target already serialized goes out without serializing it again; any other (a host name, another
                // address family) through the args, which resolve it.
                var datagram = next.Buffer.AsMemory(0, next.Length);
                var address = _targets.AddressOf(next.Target);
                IoResult result;
                if (_blocking)
                    result = SendToBlocking(next.Target, datagram.Span, address);
                else if (address == null)
                    result = await _args.SendToAsync(_socket, next.Target, datagram).ConfigureAwait(false);
                else
                {
                    try
                    {
                        result = new IoResult(await _socket.SendToAsync(datagram, SocketFlags.None, address).ConfigureAwait(false), SocketError.Success);
                    }
                    catch (Exception exception) when (SocketErrors.FromException(exception, out var error))
                    {
                        result = IoResult.Failed(error);
                    }
                }
                ArrayPool<byte>.Shared.Return(next.Buffer);
                _queue.Sent();
                if (result.Succeeded)
                {
                    _counters.CountSent(result.Bytes);
                    _hooks.Sent(next.Target, result.Bytes);
                }
                else if (_queue.IsClosed || DatagramErrors.IsTeardown(result.Error))
                    return;
                else if (DatagramErrors.IsReportable(result.Error))
                    _hooks.Error(result.Error);
            }
        }
        finally
        {
            _args.ClearBuffers();
            _args.Dispose();
            _queue.LoopEnded();
        }
    }

    /// <summary>One blocking send; errors as values (a target of the wrong address family as <see cref="SocketError.AddressFamilyNotSupported"/>).</summary>
    /// <param name="target">Where to.</param>
    /// <param name="datagram">What.</param>
    /// <param name="address"><paramref name="target"/> serialized, if known (see <see cref="TargetAddresses"/>).</param>
    private IoResult SendToBlocking(EndPoint target, ReadOnlySpan<byte> datagram, SocketAddress? address = null)
    {
        try
        {
            var sent = address != null ? _socket.SendTo(datagram, SocketFlags.None, address) : _socket.SendTo(datagram, SocketFlags.None, target);
            return new IoResult(sent, SocketError.Success);
        }
        catch (Exception exception) when (SocketErrors.FromException(exception, out var error))
        {
            return IoResult.Failed(error);
        }
    }
}
