using System;
using System.Collections.Concurrent;
using System.Text;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Interop.WebSocketPeers;

/// <summary>
/// What <see cref="InteropWsClient"/> and <see cref="InteropWssClient"/> saw, for a test to await: the upgrade answer,
/// every message and pong in order, the peer's close frame, the disconnect and any WebSocket error.
/// </summary>
internal sealed class WsClientProbe
{
    private readonly Channel<byte[]> _messages = Channel.CreateUnbounded<byte[]>();
    private readonly Channel<byte[]> _pongs = Channel.CreateUnbounded<byte[]>();

    /// <summary>The upgrade was accepted; the result is the answer's Sec-WebSocket-Extensions ("" when none).</summary>
    public TaskCompletionSource<string> Upgraded { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The status and reason of the peer's close frame.</summary>
    public TaskCompletionSource<(int Status, string Reason)> Closed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>The upgraded connection has closed.</summary>
    public TaskCompletionSource WsDisconnected { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>OnWsError's messages.</summary>
    public ConcurrentQueue<string> Errors { get; } = new();

    /// <summary>The next message, waited for at most <see cref="Wait.Default"/>.</summary>
    public Task<byte[]> NextMessage(string expected) => Wait.For(_messages.Reader.ReadAsync().AsTask(), expected);

    /// <summary>The next pong's payload, waited for at most <see cref="Wait.Default"/>.</summary>
    public Task<byte[]> NextPong(string expected) => Wait.For(_pongs.Reader.ReadAsync().AsTask(), expected);

    /// <summary>Call from OnWsConnected.</summary>
    public void Connected(HttpResponse response) => Upgraded.TrySetResult(ExtensionsOf(response));

    /// <summary>The Sec-WebSocket-Extensions field of an upgrade answer, "" when it has none.</summary>
    public static string ExtensionsOf(HttpResponse response)
    {
        for (var i = 0; i < response.Headers; i++)
        {
            var (name, value) = response.Header(i);
            if (name.Equals("Sec-WebSocket-Extensions", StringComparison.OrdinalIgnoreCase))
                return value;
        }
        return "";
    }

    /// <summary>Call from OnWsReceived: the buffer is pooled, so the message is copied.</summary>
    public void Received(byte[] buffer, long offset, long size) => _messages.Writer.TryWrite(buffer.AsSpan((int)offset, (int)size).ToArray());

    /// <summary>Call from OnWsPong.</summary>
    public void Pong(byte[] buffer, long offset, long size) => _pongs.Writer.TryWrite(buffer.AsSpan((int)offset, (int)size).ToArray());

    /// <summary>Call from OnWsClose.</summary>
    public void Close(byte[] buffer, long offset, long size, int status)
        => Closed.TrySetResult((status, Encoding.UTF8.GetString(buffer, (int)offset, (int)size)));

    /// <summary>Call from OnWsDisconnected.</summary>
    public void Disconnected() => WsDisconnected.TrySetResult();

    /// <summary>Call from OnWsError.</summary>
    public void Error(string error)
    {
        Errors.Enqueue(error);
        Upgraded.TrySetException(new InvalidOperationException($"WebSocket error before the upgrade: {error}"));
    }
}
