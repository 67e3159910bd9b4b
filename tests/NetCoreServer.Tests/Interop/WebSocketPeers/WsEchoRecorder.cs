using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>
/// What the echo sessions of <see cref="InteropWsServer"/> and <see cref="InteropWssServer"/> do and saw: every message
/// goes back to its sender, and is kept for the test, as is the close frame the peer sent. OnWsReceived does not say
/// whether a message was text or binary, so the echo follows ws-client-check.js's known order: its second message is
/// binary, every other one text.
/// </summary>
internal sealed class WsEchoRecorder
{
    private int _count;

    /// <summary>Every message received, in order.</summary>
    public ConcurrentQueue<byte[]> Messages { get; } = new();

    /// <summary>The status and reason of the first close frame a peer sent.</summary>
    public TaskCompletionSource<(int Status, string Reason)> Closed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The permessage-deflate answer of the first upgrade ("" when not negotiated).</summary>
    public TaskCompletionSource<string> Extensions { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Call from OnWsConnecting(request, response): records what the 101 will answer.</summary>
    public bool Upgrading(HttpResponse response)
    {
        Extensions.TrySetResult(WsClientProbe.ExtensionsOf(response));
        return true;
    }

    /// <summary>Call from OnWsReceived with the session's SendTextAsync and SendBinaryAsync.</summary>
    public void Echo(byte[] buffer, long offset, long size, Func<byte[], long, long, bool> sendText, Func<byte[], long, long, bool> sendBinary)
    {
        Messages.Enqueue(buffer.AsSpan((int)offset, (int)size).ToArray());
        var send = Interlocked.Increment(ref _count) == 2 ? sendBinary : sendText;
        send(buffer, offset, size);
    }

    /// <summary>Call from OnWsClose.</summary>
    public void Close(byte[] buffer, long offset, long size, int status)
        => Closed.TrySetResult((status, System.Text.Encoding.UTF8.GetString(buffer, (int)offset, (int)size)));
}
