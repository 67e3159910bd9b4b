using System;
using System.Text;
using System.Threading;
using NetCoreServer.Core;

namespace NetCoreServer;

public abstract partial class StreamConnection
{
    /// <summary>
    /// Blocking receive for connections that do not run the receive loop (a client after the synchronous
    /// <c>Connect</c>, before <see cref="ReceiveAsync"/>). Raises <see cref="OnReceived"/> with the data. On an event
    /// loop's thread it throws instead of waiting there for the peer: use <see cref="ReceiveAsync"/>.
    /// </summary>
    /// <param name="buffer">Buffer to fill.</param>
    /// <returns>Bytes received; 0 when not connected, when the peer closed, or while the receive loop runs.</returns>
    /// <exception cref="InvalidOperationException">Called on an event loop's thread.</exception>
    public virtual long Receive(byte[] buffer) => Receive(buffer, 0, buffer.Length);

    /// <summary>Blocking receive into part of a buffer; see <see cref="Receive(byte[])"/>.</summary>
    /// <param name="buffer">Buffer to fill.</param>
    /// <param name="offset">Where to start writing.</param>
    /// <param name="size">Most bytes to read.</param>
    /// <returns>Bytes received.</returns>
    /// <exception cref="InvalidOperationException">Called on an event loop's thread.</exception>
    public virtual long Receive(byte[] buffer, long offset, long size)
    {
        var engine = Engine;
        if (engine == null)
            return 0;
        Transports.EventLoop.ThrowIfLoopThread(nameof(Receive), nameof(ReceiveAsync));
        var result = engine.ReceiveBlocking(buffer.AsSpan(checked((int)offset), checked((int)size)));
        if (result.Bytes > 0)
        {
            using var scope = Hooks.Enter(engine);
            OnReceived(buffer, offset, result.Bytes);
        }
        return result.Bytes;
    }

    /// <summary>Blocking receive of up to <paramref name="size"/> bytes, decoded as UTF-8.</summary>
    /// <param name="size">Most bytes to read.</param>
    /// <returns>The text received; empty when nothing was.</returns>
    public virtual string Receive(long size)
    {
        var buffer = new byte[size];
        var length = Receive(buffer);
        return Encoding.UTF8.GetString(buffer, 0, (int)length);
    }

    /// <summary>
    /// What <see cref="OnReceived"/> does for a connection with a protocol (HTTP, WebSocket): hands the bytes to it, after
    /// any it left unconsumed before, until it consumes nothing more, and keeps the rest for the next call. A message
    /// left unfinished past the receive limit closes the connection with <see cref="DisconnectReason.ProtocolError"/>.
    /// </summary>
    private void FeedProtocol(byte[] buffer, long offset, long size)
    {
        if (size > 0)
            FeedProtocol(buffer.AsSpan(checked((int)offset), checked((int)size)));
    }

    /// <summary>Hands the protocol what it left, followed by <paramref name="chunk"/> (empty after a hold ended).</summary>
    private void FeedProtocol(ReadOnlySpan<byte> chunk)
    {
        if (Volatile.Read(ref _protocol) == null)
            return;
        var feed = _feed ??= new ProtocolFeed();
        var data = feed.Length == 0 ? chunk : feed.Append(chunk);
        var consumed = 0;
        while (consumed < data.Length && IsConnected)
        {
            // Read each time: an upgrade replaces the protocol, and the bytes after it go to the new one.
            var protocol = Volatile.Read(ref _protocol);
            if (protocol == null)
                break;
            var taken = protocol.Received(data[consumed..]);
            if (taken <= 0)
                break;
            consumed += Math.Min(taken, data.Length - consumed);
        }
        if (!IsConnected)
        {
            feed.Clear();
            return;
        }
        feed.Keep(data, consumed);
        if (feed.Length >= Limits.EffectiveReceiveBufferLimit)
        {
            feed.Clear();
            DisconnectEngine(NetCoreServer.DisconnectReason.ProtocolError);
        }
    }

    /// <summary>Starts the receive loop (if it is not running yet); data then arrives through <see cref="OnReceived"/>.</summary>
    public virtual void ReceiveAsync() => Engine?.StartReceiving();
}
