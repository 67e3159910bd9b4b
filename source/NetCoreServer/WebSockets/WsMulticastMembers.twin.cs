using System;
using NetCoreServer.Core;
using NetCoreServer.WebSockets;

// twin: NetCoreServer.WsServer NetCoreServer.WssServer

    /// <summary>
    /// Sends a text message (UTF-8) to every upgraded session that is not closing: the frame is encoded once and the same bytes are
    /// queued on every session (see <see cref="Multicast(ReadOnlySpan{byte})"/>). It is never compressed, which
    /// permessage-deflate allows for any message.
    /// </summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(ReadOnlySpan<byte> buffer) => MulticastFrame(WsOpcode.Text, buffer);

    /// <summary>Multicasts a text message (UTF-8); see <see cref="MulticastText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(string text) => MulticastText(text.AsSpan());

    /// <summary>Multicasts a text message (UTF-8); see <see cref="MulticastText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return MulticastText(bytes.Span);
    }

    /// <summary>Multicasts a text message (UTF-8); see <see cref="MulticastText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(byte[] buffer) => MulticastText(buffer.AsSpan());

    /// <summary>Multicasts a text message (UTF-8); see <see cref="MulticastText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(byte[] buffer, long offset, long size) => MulticastText(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends a binary message to every upgraded session that is not closing: the frame is encoded once and the same bytes are
    /// queued on every session (see <see cref="Multicast(ReadOnlySpan{byte})"/>). It is never compressed, which
    /// permessage-deflate allows for any message.
    /// </summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(ReadOnlySpan<byte> buffer) => MulticastFrame(WsOpcode.Binary, buffer);

    /// <summary>Multicasts a binary message; see <see cref="MulticastBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(string text) => MulticastBinary(text.AsSpan());

    /// <summary>Multicasts a binary message; see <see cref="MulticastBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return MulticastBinary(bytes.Span);
    }

    /// <summary>Multicasts a binary message; see <see cref="MulticastBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(byte[] buffer) => MulticastBinary(buffer.AsSpan());

    /// <summary>Multicasts a binary message; see <see cref="MulticastBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(byte[] buffer, long offset, long size) => MulticastBinary(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends a ping (at most 125 bytes) to every upgraded session that is not closing: the frame is encoded once and the same bytes are
    /// queued on every session (see <see cref="Multicast(ReadOnlySpan{byte})"/>). It is never compressed, which
    /// permessage-deflate allows for any message.
    /// </summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>False if the server is not started or the payload is over 125 bytes.</returns>
    public bool MulticastPing(ReadOnlySpan<byte> buffer) => MulticastFrame(WsOpcode.Ping, buffer);

    /// <summary>Multicasts a ping (at most 125 bytes); see <see cref="MulticastPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastPing(string text) => MulticastPing(text.AsSpan());

    /// <summary>Multicasts a ping (at most 125 bytes); see <see cref="MulticastPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastPing(ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return MulticastPing(bytes.Span);
    }

    /// <summary>Multicasts a ping (at most 125 bytes); see <see cref="MulticastPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastPing(byte[] buffer) => MulticastPing(buffer.AsSpan());

    /// <summary>Multicasts a ping (at most 125 bytes); see <see cref="MulticastPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastPing(byte[] buffer, long offset, long size) => MulticastPing(buffer.AsSpan(checked((int)offset), checked((int)size)));
