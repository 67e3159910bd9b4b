using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;

namespace NetCoreServer.Udp;

/// <summary>
/// The one datagram engine behind <see cref="UdpServer"/> and <see cref="UdpClient"/>: owns a bound socket and its
/// lifecycle (start, flush, close), and is made of named components: the <see cref="DatagramReceiver"/> (receive loop,
/// when to receive, blocking Receive), the <see cref="DatagramSendQueue"/> (bounded, with its own lock), the
/// <see cref="DatagramSender"/> (send loop, blocking Send), the <see cref="DatagramCounters"/> and the
/// <see cref="DatagramHooks"/> (the one rule for hook exceptions). Both loops park when they have nothing to do, so
/// an idle engine holds no receive buffer and steady traffic allocates nothing per datagram (datagram-engine.md).
/// </summary>
internal sealed class DatagramEngine
{
    /// <summary>How long Close waits for datagrams accepted by SendAsync to be handed to the socket.</summary>
    public static readonly TimeSpan FlushTimeout = TimeSpan.FromSeconds(2);

    /// <summary>How long a stop waits for the loops to finish after the socket is closed (normally microseconds).</summary>
    public static readonly TimeSpan LoopExitTimeout = TimeSpan.FromSeconds(5);

    private readonly DatagramHooks _hooks;
    private readonly DatagramCounters _counters = new();
    private readonly DatagramSendQueue _sendQueue;
    private readonly DatagramSender _sender;
    private readonly DatagramReceiver _receiver;
    private Task _receiveLoop = Task.CompletedTask;
    private Task _sendLoop = Task.CompletedTask;

    public DatagramEngine(Socket socket, IDatagramHost host, DatagramOptions options)
    {
        Socket = socket;
        _hooks = new DatagramHooks(host);
        _sendQueue = new DatagramSendQueue(options);
        _sender = new DatagramSender(socket, _sendQueue, _hooks, _counters, blocking: options.ReceiveThread);
        _receiver = new DatagramReceiver(socket, options, _hooks, _counters);
    }

    public Socket Socket { get; }

    /// <summary>True once <see cref="Close"/> has begun: the send queue's close is the moment that decides it.</summary>
    public bool IsClosed => _sendQueue.IsClosed;

    public long BytesPending => _sendQueue.BytesPending;

    public long BytesSending => _sendQueue.BytesSending;

    public long BytesSent => _counters.BytesSent;

    public long BytesReceived => _counters.BytesReceived;

    public long DatagramsSent => _counters.DatagramsSent;

    public long DatagramsReceived => _counters.DatagramsReceived;

    /// <summary>Completes when both loops have ended.</summary>
    internal Task Loops => Task.WhenAll(_receiveLoop, _sendLoop);

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

    /// <summary>NetCoreServer's ReceiveAsync: asks for the next datagram.</summary>
    public void RequestReceive() => _receiver.Request();

    /// <summary>Blocking receive of one datagram: its size, or -1 when closed or failed (errors worth it are reported).</summary>
    public int ReceiveBlocking(ref EndPoint endpoint, Span<byte> buffer) => _receiver.ReceiveBlocking(ref endpoint, buffer);

    /// <summary>SendAsync: queues a copy of the datagram (see <see cref="DatagramSendQueue.Enqueue"/>).</summary>
    public EnqueueResult Enqueue(EndPoint target, ReadOnlySpan<byte> datagram) => _sendQueue.Enqueue(target, datagram);

    /// <summary>Blocking send of one datagram: the bytes sent, or -1 when closed or failed (errors worth it are reported).</summary>
    public int SendBlocking(EndPoint target, ReadOnlySpan<byte> datagram) => _sender.SendBlocking(target, datagram);

    /// <summary>Raises OnError for a synchronous call; exceptions from the hook reach the caller.</summary>
    public void ReportInline(SocketError error) => _hooks.ReportInline(error);

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
            _sendQueue.Flush(FlushTimeout);
        if (!_sendQueue.Close())
            return false;
        _receiver.Close();
        Socket.Dispose();
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

    private void StartLoops()
    {
        _receiveLoop = _receiver.Start();
        _sendLoop = _sender.RunAsync();
    }
}
