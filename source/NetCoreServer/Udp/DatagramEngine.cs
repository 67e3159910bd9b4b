using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp;

/// <summary>
/// The one datagram engine behind <see cref="UdpServer"/> and <see cref="UdpClient"/>: owns a bound socket, a receive
/// loop and a send loop (each a single long-lived async method on a reusable SocketAsyncEventArgs), the bounded send
/// queue, the statistics and teardown. Both loops park on a reusable signal when they have nothing to do, so an idle
/// engine holds no receive buffer and steady traffic allocates nothing per datagram.
/// </summary>
internal sealed partial class DatagramEngine
{
    /// <summary>How long Close waits for datagrams accepted by SendAsync to be handed to the socket.</summary>
    public static readonly TimeSpan FlushTimeout = TimeSpan.FromSeconds(2);

    /// <summary>How long a stop waits for the loops to finish after the socket is closed (normally microseconds).</summary>
    public static readonly TimeSpan LoopExitTimeout = TimeSpan.FromSeconds(5);

    // Depth of UDP hooks on this thread: a Stop or Disconnect from inside one must not wait for the loop it runs on.
    [ThreadStatic]
    private static int t_hookDepth;

    private readonly IDatagramHost _host;
    private readonly DatagramOptions _options;
    private long _bytesSent;
    private long _bytesReceived;
    private long _datagramsSent;
    private long _datagramsReceived;
    private volatile bool _closed;
    private Task _receiveLoop = Task.CompletedTask;
    private Task _sendLoop = Task.CompletedTask;

    public DatagramEngine(Socket socket, IDatagramHost host, DatagramOptions options)
    {
        Socket = socket;
        _host = host;
        _options = options;
        _receiveArgs.RemoteEndPoint = AnyEndpoint(socket.AddressFamily);
    }

    public Socket Socket { get; }

    public bool IsClosed => _closed;

    /// <summary>True while this thread runs a UDP hook (or code it called).</summary>
    public static bool IsInsideHook => t_hookDepth > 0;

    public long BytesSent => Interlocked.Read(ref _bytesSent);

    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    public long DatagramsSent => Interlocked.Read(ref _datagramsSent);

    public long DatagramsReceived => Interlocked.Read(ref _datagramsReceived);

    /// <summary>Test seam, null outside tests: called at each <see cref="EngineTestPoint"/> on the thread that reaches it.</summary>
    internal Action<EngineTestPoint>? TestProbe { get; set; }

    /// <summary>Completes when both loops have ended (for tests).</summary>
    internal Task Loops => Task.WhenAll(_receiveLoop, _sendLoop);

    /// <summary>The "any sender" endpoint of a family, used as the template the runtime fills on receive.</summary>
    public static EndPoint AnyEndpoint(AddressFamily family)
        => new IPEndPoint(family == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any, 0);

    /// <summary>Starts both loops; they park at once until a receive is requested or a datagram is queued.</summary>
    public void Start()
    {
        // The loops outlive this call: they must not keep the caller's execution context (its AsyncLocals).
        if (ExecutionContext.IsFlowSuppressed())
        {
            StartLoops();
            return;
        }
        using (ExecutionContext.SuppressFlow())
            StartLoops();
    }

    private void StartLoops()
    {
        _receiveLoop = ReceiveLoopAsync();
        _sendLoop = SendLoopAsync();
    }

    /// <summary>
    /// Closes the socket. With <paramref name="flush"/> (and outside a hook, where waiting could block the very loop
    /// that has to do the work) datagrams already accepted by SendAsync are first handed to the socket, bounded by
    /// <see cref="FlushTimeout"/>. Then both loops end; waits for that unless called from inside a hook.
    /// </summary>
    /// <returns>False when already closed.</returns>
    public bool Close(bool flush)
    {
        if (flush && !IsInsideHook)
            FlushQueue();
        if (!CloseQueue(out var wakeSender))
            return false;
        Socket.Dispose();
        if (wakeSender)
            _sendSignal.Set();
        // A receive loop not parked yet sees closed once it parks and wakes itself (KeepReceiving).
        if (Interlocked.CompareExchange(ref _receiveState, ReceiveWanted, ReceiveParked) == ReceiveParked)
            _receiveSignal.Set();
        TestProbe?.Invoke(EngineTestPoint.LoopsWoken);
        if (!IsInsideHook)
        {
            try
            {
                Task.WaitAll([_receiveLoop, _sendLoop], LoopExitTimeout);
            }
            catch (AggregateException)
            {
                // The loops report their own failures; a stop must not throw because of one.
            }
        }
        return true;
    }

    /// <summary>Raises a hook from a loop: a hook that throws goes to OnHandlerException and the loop carries on.</summary>
    private void RaiseReceived(EndPoint endpoint, byte[] buffer, int size)
    {
        t_hookDepth++;
        try
        {
            _host.Received(endpoint, buffer, 0, size);
        }
        catch (Exception e)
        {
            RaiseHandlerException(e);
        }
        finally
        {
            t_hookDepth--;
        }
    }

    private void RaiseSent(EndPoint endpoint, long sent)
    {
        t_hookDepth++;
        try
        {
            _host.Sent(endpoint, sent);
        }
        catch (Exception e)
        {
            RaiseHandlerException(e);
        }
        finally
        {
            t_hookDepth--;
        }
    }

    private void RaiseError(SocketError error)
    {
        t_hookDepth++;
        try
        {
            _host.Error(error);
        }
        catch (Exception e)
        {
            RaiseHandlerException(e);
        }
        finally
        {
            t_hookDepth--;
        }
    }

    private void RaiseHandlerException(Exception exception)
    {
        try
        {
            _host.HandlerException(exception);
        }
        catch (Exception)
        {
            // The handler of handler failures failed too; the loop must survive it.
        }
    }

    /// <summary>
    /// Marks this thread as inside a hook raised by a synchronous call (Send, Receive, a refused SendAsync). Such
    /// hooks run on the caller's thread and their exceptions reach the caller; pair with <see cref="ExitHook"/>.
    /// </summary>
    public static void EnterHook() => t_hookDepth++;

    public static void ExitHook() => t_hookDepth--;
}
