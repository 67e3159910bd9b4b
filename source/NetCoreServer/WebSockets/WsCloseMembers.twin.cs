using System;
using NetCoreServer.Core;
using NetCoreServer.WebSockets;

// twin: NetCoreServer.WsSession NetCoreServer.WssSession NetCoreServer.WsClient NetCoreServer.WssClient

    /// <summary>
    /// Closes the WebSocket: sends a close frame and waits until it is handed to the socket (see <see cref="SendClose(int, ReadOnlySpan{byte})"/>), then the connection closes
    /// when the peer answers with its close frame or <see cref="WsOptions.CloseTimeout"/> passes. Before the upgrade it
    /// disconnects at once. A client called outside its own hooks waits until the connection has closed. On an event
    /// loop's thread nothing waits: the close frame is queued as <c>CloseAsync</c> does.
    /// </summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">The UTF-8 reason (cut to 123 bytes).</param>
    /// <returns>True when the close started; false when not connected.</returns>
    public virtual bool Close(int status, ReadOnlySpan<byte> buffer)
    {
        var ws = _ws;
        if (ws == null)
            return DisconnectEngine(NetCoreServer.DisconnectReason.Local);
        if (!IsConnected)
            return false;
        ws.SendClose(status, buffer, blocking: true);
        WaitClosed();
        return true;
    }

    /// <summary>Closes with status 1000 (normal); see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <returns>True when the close started.</returns>
    public virtual bool Close() => Close(1000, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and no reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status) => Close(status, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, string text) => Close(status, text.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Close(status, bytes.Span);
    }

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, byte[] buffer) => Close(status, buffer.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">Buffer holding the UTF-8 reason.</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, byte[] buffer, long offset, long size) => Close(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Closes the WebSocket: queues a close frame and returns at once (see <see cref="SendClose(int, ReadOnlySpan{byte})"/>), then the connection closes
    /// when the peer answers with its close frame or <see cref="WsOptions.CloseTimeout"/> passes. Before the upgrade it
    /// disconnects at once.
    /// </summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">The UTF-8 reason (cut to 123 bytes).</param>
    /// <returns>True when the close started; false when not connected.</returns>
    public virtual bool CloseAsync(int status, ReadOnlySpan<byte> buffer)
    {
        var ws = _ws;
        if (ws == null)
            return DisconnectEngine(NetCoreServer.DisconnectReason.Local);
        if (!IsConnected)
            return false;
        ws.SendClose(status, buffer, blocking: false);
        return true;
    }

    /// <summary>Closes with status 1000 (normal); see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync() => CloseAsync(1000, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and no reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status) => CloseAsync(status, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, string text) => CloseAsync(status, text.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return CloseAsync(status, bytes.Span);
    }

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, byte[] buffer) => CloseAsync(status, buffer.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">Buffer holding the UTF-8 reason.</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, byte[] buffer, long offset, long size) => CloseAsync(status, buffer.AsSpan(checked((int)offset), checked((int)size)));
