using System;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// NetCoreServer's blocking send: the other sender besides the send loop (see the sending side in
/// StreamSessionEngine.Send.cs). It writes directly when nothing else is sending, else queues and waits.
/// </summary>
internal sealed partial class StreamSessionEngine
{
    /// <summary>
    /// NetCoreServer's synchronous send: blocks until the bytes are handed to the transport, in order with queued
    /// asynchronous sends. When nothing else is sending it writes directly; otherwise it queues and waits, except
    /// where waiting would wait on itself (inside OnSent/OnEmpty, or inside a hook before the TLS handshake), where
    /// it queues and returns. Before the handshake the data waits for it. On an event loop's thread it always queues and
    /// returns: waiting there could wait for the loop itself.
    /// </summary>
    public long SendBlocking(ReadOnlySpan<byte> data) => SendBlocking(data, default);

    /// <summary>The blocking send of a message in two pieces, as one unit; see <see cref="SendBlocking(ReadOnlySpan{byte})"/>.</summary>
    public long SendBlocking(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        var length = head.Length + body.Length;
        if (length == 0)
            return 0;
        Task<bool>? wait = null;
        bool direct;
        var start = false;
        lock (this)
        {
            if (!AcceptsSends)
                return 0;
            MaterializeLocked();
            // On an event loop's thread a blocking write could wait for the loop itself: the bytes are queued instead.
            var onLoop = Transports.EventLoop.IsLoopThread;
            direct = Ready && !SendRunning && QueueEmpty && !onLoop;
            if (direct)
            {
                SendRunning = true;
                var queue = Queue;
                queue.Sending = length;
                queue.AcceptedTotal += length;
            }
            else
            {
                AppendLocked(head);
                AppendLocked(body);
                start = AcceptedLocked(length, mayHold: false);
                if (!onLoop && !Hooks.Inside(this, HookKind.Sending) && (Ready || !Hooks.Inside(this)))
                    wait = AddWaiterLocked();
            }
        }

        if (!direct)
        {
            NotifyWritability();
            if (start)
                RunSendLoop();
            return wait == null || wait.GetAwaiter().GetResult() ? length : 0;
        }
        // The sender role is held: nothing can come between the two pieces.
        var result = _transport.Send(head);
        if (result.Succeeded && !body.IsEmpty)
        {
            var rest = _transport.Send(body);
            result = new IoResult(result.Bytes + rest.Bytes, rest.Error);
        }
        if (CompleteSend(result, direct: true))
            RunSendLoop();
        return result.Bytes;
    }
}
