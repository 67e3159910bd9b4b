using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Udp;

/// <summary>
/// The receive thread (<see cref="DatagramPeer.OptionReceiveThread"/>): the same receive loop with blocking calls on
/// a thread of the socket's own, and a send loop that sends with blocking calls. Such a socket never goes through the
/// runtime's socket engine (no epoll wait, no pool thread woken per burst, no re-arming), which on Linux would also
/// make the socket non-blocking and turn every blocking call into a wait on that engine.
/// </summary>
internal sealed partial class DatagramEngine
{
    // Read when the engine is made: the socket is served by the runtime's engine or by its own thread, never both.
    private readonly bool _threaded;

    /// <summary>
    /// Starts the receive thread, which runs <see cref="ReceiveLoopAsync"/>: in this mode every wait in it blocks, so the
    /// loop never leaves the thread and its task has completed when the thread ends. The returned task completes then.
    /// </summary>
    private Task StartReceiveThread()
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(static state =>
        {
            var (engine, done) = ((DatagramEngine, TaskCompletionSource))state!;
            try
            {
                engine.ReceiveLoopAsync().GetAwaiter().GetResult();
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
            return new IoResult(Socket.ReceiveFrom(buffer, SocketFlags.None, address), SocketError.Success);
        }
        catch (Exception exception) when (SocketErrors.FromException(exception, out var error))
        {
            return IoResult.Failed(error);
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
            var sent = address != null ? Socket.SendTo(datagram, SocketFlags.None, address) : Socket.SendTo(datagram, SocketFlags.None, target);
            return new IoResult(sent, SocketError.Success);
        }
        catch (Exception exception) when (SocketErrors.FromException(exception, out var error))
        {
            return IoResult.Failed(error);
        }
    }
}
