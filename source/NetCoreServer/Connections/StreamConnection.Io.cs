using System;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Framing;
using NetCoreServer.Protocols;
using NetCoreServer.Transports;

namespace NetCoreServer;

// The public send and receive surface: thin forwards to the engine (no state of its own).
public abstract partial class StreamConnection
{
    /// <summary>Sends data and blocks until it is handed to the socket, in order with earlier <c>SendAsync</c> data.</summary>
    /// <param name="buffer">Data to send.</param>
    /// <returns>Bytes sent; 0 when not connected.</returns>
    public virtual long Send(byte[] buffer) => Send(buffer.AsSpan());

    /// <summary>Sends part of a buffer synchronously; see <see cref="Send(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the data.</param>
    /// <param name="offset">Offset of the data.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>Bytes sent; 0 when not connected.</returns>
    public virtual long Send(byte[] buffer, long offset, long size) => Send(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends data synchronously: when nothing is queued it is written straight to the socket; otherwise it is
    /// queued behind earlier data and the call waits until it has been handed over. Raises <see cref="OnSent"/>. On an
    /// event loop's thread it queues, and a wait hands the loop to another thread first (see <see cref="EventLoops.HandoffThreshold"/>).
    /// </summary>
    /// <param name="buffer">Data to send; not kept after the call returns.</param>
    /// <returns>Bytes sent; 0 when not connected.</returns>
    public virtual long Send(ReadOnlySpan<byte> buffer) => Engine?.SendBlocking(buffer) ?? 0;

    /// <summary>Sends text as UTF-8 synchronously.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not connected.</returns>
    public virtual long Send(string text) => Send(text.AsSpan());

    /// <summary>Sends text as UTF-8 synchronously.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>Bytes sent; 0 when not connected.</returns>
    public virtual long Send(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Send(bytes.Span);
    }

    /// <summary>Queues data for sending and returns at once; see <see cref="SendAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Data to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(byte[] buffer) => SendAsync(buffer.AsSpan());

    /// <summary>Queues part of a buffer for sending; see <see cref="SendAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the data.</param>
    /// <param name="offset">Offset of the data.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(byte[] buffer, long offset, long size) => SendAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Copies data into the send queue and returns at once; the bytes go out in order, batched with other queued
    /// data. Safe from any thread; never throws after close.
    /// </summary>
    /// <param name="buffer">Data to send (copied before the call returns).</param>
    /// <returns>
    /// True when queued (or empty). False when not connected, or when <see cref="OptionSendBufferLimit"/> would be
    /// passed: then <see cref="OnError"/> gets <see cref="SocketError.NoBufferSpaceAvailable"/> and nothing is queued.
    /// </returns>
    public virtual bool SendAsync(ReadOnlySpan<byte> buffer)
    {
        var engine = Engine;
        if (engine == null || !engine.AcceptsSends)
            return false;
        if (buffer.IsEmpty)
            return true;
        return Accepted(engine, engine.Enqueue(buffer));
    }

    /// <summary>Queues text as UTF-8; see <see cref="SendAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(string text) => SendAsync(text.AsSpan());

    /// <summary>Queues text as UTF-8; see <see cref="SendAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <returns>True when queued.</returns>
    public virtual bool SendAsync(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return SendAsync(bytes.Span);
    }

    /// <summary>
    /// Queues data like <see cref="SendAsync(ReadOnlySpan{byte})"/> and returns a task that completes when the data
    /// has been handed to the socket: true then, false if it was refused (not connected, send limit) or the
    /// connection ended first. Cancelling stops the wait only; queued data is still sent.
    /// </summary>
    /// <param name="buffer">Data to send (copied before the call returns).</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>Whether the data reached the socket.</returns>
    public Task<bool> SendAndWaitAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        var engine = Engine;
        if (engine == null || !engine.AcceptsSends)
            return Task.FromResult(false);
        if (buffer.IsEmpty)
            return Task.FromResult(true);
        var task = engine.EnqueueAndWait(buffer.Span, out var status);
        if (!Accepted(engine, status))
            return Task.FromResult(false);
        return cancellationToken.CanBeCanceled ? task.WaitAsync(cancellationToken) : task;
    }

    /// <summary>Queues text as UTF-8 and waits until it is handed to the socket; see <see cref="SendAndWaitAsync(ReadOnlyMemory{byte}, CancellationToken)"/>.</summary>
    /// <param name="text">Text to send.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>Whether the data reached the socket.</returns>
    public Task<bool> SendAndWaitAsync(string text, CancellationToken cancellationToken = default)
    {
        using var bytes = PooledUtf8.Encode(text);
        return SendAndWaitAsync(bytes.Memory, cancellationToken);
    }

    /// <summary>Completes when everything queued so far has been handed to the socket (true), or the connection ended first (false).</summary>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <returns>Whether the queue drained.</returns>
    public Task<bool> FlushAsync(CancellationToken cancellationToken = default)
    {
        var task = Engine?.Flush() ?? Task.FromResult(false);
        return cancellationToken.CanBeCanceled ? task.WaitAsync(cancellationToken) : task;
    }

    /// <summary>
    /// Sends one message framed by <see cref="Framing"/> (its length prefix or delimiter added), synchronously, as
    /// <see cref="Send(ReadOnlySpan{byte})"/> does; prefix, message and delimiter go as one unit.
    /// </summary>
    /// <param name="message">The message; not kept after the call returns.</param>
    /// <returns>Bytes sent with the framing; 0 when not connected.</returns>
    /// <exception cref="InvalidOperationException"><see cref="Framing"/> is not set.</exception>
    /// <exception cref="ArgumentException">The message is over the framing's maximum, or contains its delimiter.</exception>
    public virtual long SendMessage(ReadOnlySpan<byte> message) => SendFramed(message, blocking: true);

    /// <summary>Sends text as one UTF-8 message; see <see cref="SendMessage(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">The message.</param>
    /// <returns>Bytes sent with the framing; 0 when not connected.</returns>
    public long SendMessage(string text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return SendMessage(bytes.Span);
    }

    /// <summary>Queues one message framed by <see cref="Framing"/> and returns at once, as <see cref="SendAsync(ReadOnlySpan{byte})"/> does.</summary>
    /// <param name="message">The message (copied before the call returns).</param>
    /// <returns>True when queued.</returns>
    /// <exception cref="InvalidOperationException"><see cref="Framing"/> is not set.</exception>
    /// <exception cref="ArgumentException">The message is over the framing's maximum, or contains its delimiter.</exception>
    public virtual bool SendMessageAsync(ReadOnlySpan<byte> message) => SendFramed(message, blocking: false) > 0;

    /// <summary>Queues text as one UTF-8 message; see <see cref="SendMessageAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">The message.</param>
    /// <returns>True when queued.</returns>
    public bool SendMessageAsync(string text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return SendMessageAsync(bytes.Span);
    }

    /// <summary>Frames and sends or queues a message; returns its bytes on the wire, or 0 when refused.</summary>
    private long SendFramed(ReadOnlySpan<byte> message, bool blocking)
    {
        var framing = Framing ?? throw new InvalidOperationException("set Framing before sending messages");
        if (blocking)
            return SendFramedBlocking(framing, message);
        var framed = new FramedMessage(framing, message);
        return SendWritten(ref framed) ? framed.Length : 0;
    }

    private long SendFramedBlocking(MessageFraming framing, ReadOnlySpan<byte> message)
    {
        Span<byte> prefix = stackalloc byte[MessageFraming.MaxPrefix];
        var length = framing.WritePrefix(message, prefix);
        var suffix = framing.Suffix;
        var sent = length > 0 ? SendMessage(prefix[..length], message, blocking: true) : SendMessage(message, suffix, blocking: true);
        return sent ? length + message.Length + suffix.Length : 0;
    }

    /// <summary>
    /// Sends a message in two pieces (a protocol's head and body) as one unit that no other send can come between:
    /// queued (copied) when <paramref name="blocking"/> is false, written and waited for otherwise. The user's
    /// Send/SendAsync overrides are not called.
    /// </summary>
    private protected bool SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking)
    {
        var engine = Engine;
        if (engine == null)
            return false;
        if (blocking)
            return engine.SendBlocking(head, body) > 0;
        if (!engine.AcceptsSends)
            return false;
        return Accepted(engine, engine.Enqueue(head, body));
    }

    /// <summary>Queues a message that writes itself into the send queue (a WebSocket frame), as one unit; see <see cref="SendPipeline.EnqueueWritten{T}"/>.</summary>
    private protected bool SendWritten<T>(scoped ref T message)
        where T : IMessageWriter, allows ref struct
    {
        var engine = Engine;
        if (engine == null || !engine.AcceptsSends)
            return false;
        return Accepted(engine, engine.EnqueueWritten(ref message));
    }

    /// <summary>Offers a message to the send queue without reporting a refusal: the caller keeps what does not fit and retries.</summary>
    private protected SendStatus TrySendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
        => Engine is { } engine ? engine.Enqueue(head, body) : SendStatus.NotConnected;

    /// <summary>Offers bytes by reference (unchanged until sent), without reporting a refusal.</summary>
    private protected SendStatus TrySendBorrowed(ArraySegment<byte> bytes)
        => Engine is { } engine ? engine.EnqueueBorrowed(default, bytes, null) : SendStatus.NotConnected;

    /// <summary>How many more bytes the send queue takes before its high watermark (its limit when it has none); 0 when closed.</summary>
    private protected long SendRoom
    {
        get
        {
            var engine = Engine;
            if (engine == null || !engine.AcceptsSends)
                return 0;
            var options = Limits;
            var bound = options.EffectiveHighWatermark > 0 ? options.EffectiveHighWatermark : options.SendBufferLimit;
            if (bound <= 0)
                return long.MaxValue;
            return Math.Max(0, bound - engine.BytesPending - engine.BytesSending);
        }
    }

    /// <summary>Holds the receive loop from inside a protocol's receive call; see <see cref="StreamSessionEngine.HoldReceiving"/>.</summary>
    private protected void HoldReceiving() => Engine?.HoldReceiving();

    /// <summary>Ends <see cref="HoldReceiving"/>.</summary>
    private protected void ReleaseReceiving() => Engine?.ReleaseReceiving();

    // The accepted case returns before the refusal report, whose hook scope (a try/finally) kept this from being inlined.
    private bool Accepted(StreamSessionEngine engine, SendStatus status)
    {
        if (status == SendStatus.Accepted)
            return true;
        ReportRefusal(engine, status);
        return false;
    }

    /// <summary>Raises OnError(NoBufferSpaceAvailable) on the caller's thread when the send limit refused data, once per episode.</summary>
    private protected void ReportRefusal(StreamSessionEngine engine, SendStatus status)
    {
        if (status != SendStatus.LimitReached || !engine.TakeRefusalReport())
            return;
        using var scope = Hooks.Enter(engine);
        OnError(SocketError.NoBufferSpaceAvailable);
    }

    /// <summary>
    /// Blocking receive for connections that do not run the receive loop (a client after the synchronous
    /// <c>Connect</c>, before <see cref="ReceiveAsync"/>). Raises <see cref="OnReceived"/> with the data. On an event
    /// loop's thread the loop is handed to another thread first (see <see cref="EventLoops.HandoffThreshold"/>).
    /// </summary>
    /// <param name="buffer">Buffer to fill.</param>
    /// <returns>Bytes received; 0 when not connected, when the peer closed, or while the receive loop runs.</returns>
    public virtual long Receive(byte[] buffer) => Receive(buffer, 0, buffer.Length);

    /// <summary>Blocking receive into part of a buffer; see <see cref="Receive(byte[])"/>.</summary>
    /// <param name="buffer">Buffer to fill.</param>
    /// <param name="offset">Where to start writing.</param>
    /// <param name="size">Most bytes to read.</param>
    /// <returns>Bytes received.</returns>
    public virtual long Receive(byte[] buffer, long offset, long size)
    {
        var engine = Engine;
        if (engine == null)
            return 0;
        Transports.EventLoop.HandOffBeforeWaiting();
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

    /// <summary>Starts the receive loop (if it is not running yet); data then arrives through <see cref="OnReceived"/>.</summary>
    public virtual void ReceiveAsync() => Engine?.StartReceiving();
}
