using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;

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

    // What the loops do with an exception from a hook: hand it to OnHandlerException, which must not end the loop either.
    private static readonly Action<IDatagramHost, Exception> s_handlerFailed = static (host, exception) =>
    {
        try
        {
            host.HandlerException(exception);
        }
        catch (Exception)
        {
            // The handler of handler failures failed too; the loop must survive it.
        }
    };

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
        _threaded = options.ReceiveThread;
        _targets = new TargetAddresses(socket.AddressFamily);
    }

    public Socket Socket { get; }

    public bool IsClosed => _closed;

    public long BytesSent => Interlocked.Read(ref _bytesSent);

    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    public long DatagramsSent => Interlocked.Read(ref _datagramsSent);

    public long DatagramsReceived => Interlocked.Read(ref _datagramsReceived);

    /// <summary>Completes when both loops have ended.</summary>
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
        _receiveLoop = _threaded ? StartReceiveThread() : ReceiveLoopAsync();
        _sendLoop = SendLoopAsync();
    }

    /// <summary>
    /// Closes the socket. With <paramref name="flush"/> (and outside any hook, where waiting could block the very loop
    /// that has to do the work, this socket's or one that runs inline on the same thread) datagrams already accepted by
    /// SendAsync are first handed to the socket, bounded by <see cref="FlushTimeout"/>. Then both loops end; waits for
    /// that unless called from inside a hook.
    /// </summary>
    /// <returns>False when already closed.</returns>
    public bool Close(bool flush)
    {
        if (flush && !Hooks.InsideAny)
            FlushQueue();
        if (!CloseQueue(out var wakeSender))
            return false;
        Socket.Dispose();
        if (wakeSender)
            _sendSignal.Set();
        _receiveGate.Close();
        if (!Hooks.InsideAny)
        {
            try
            {
                Loops.Wait(LoopExitTimeout);
            }
            catch (AggregateException)
            {
                // The loops report their own failures; a stop must not throw because of one.
            }
        }
        return true;
    }

    // Hooks raised by the loops: a hook that throws goes to OnHandlerException and the loop carries on. Static lambdas
    // with the datagram passed as state keep this allocation-free.
    private void RaiseReceived(EndPoint endpoint, byte[] buffer, int size)
        => Hooks.Run(_host, HookKind.Other, (endpoint, buffer, size),
            static (host, datagram) => host.Received(datagram.endpoint, datagram.buffer, 0, datagram.size), s_handlerFailed);

    private void RaiseSent(EndPoint endpoint, long sent)
        => Hooks.Run(_host, HookKind.Sending, (endpoint, sent), static (host, datagram) => host.Sent(datagram.endpoint, datagram.sent), s_handlerFailed);

    private void RaiseError(SocketError error)
        => Hooks.Run(_host, HookKind.Other, error, static (host, error) => host.Error(error), s_handlerFailed);
}
