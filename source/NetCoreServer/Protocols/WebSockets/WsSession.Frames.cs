using System;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

// The frame senders: text, binary, ping, pong and close, each waiting or queued (the hooks and the close are in WsSession.cs).
public partial class WsSession
{
    /// <summary>
    /// Sends a text message as one frame and waits until it is handed to the socket (in order with queued frames). The
    /// bytes must be valid UTF-8 (the peer fails the connection with 1007 otherwise); strings are encoded as UTF-8. On an
    /// event loop's thread the loop is handed to another thread before it waits.
    /// </summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>Bytes of the frame on the wire; 0 when refused (not upgraded, a close frame sent or received, not connected).</returns>
    public long SendText(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Text, buffer);

    /// <summary>Sends a text message, waiting until it is handed to the socket; see <see cref="SendText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendText(string text) => SendText(text.AsSpan());

    /// <summary>Sends a text message, waiting until it is handed to the socket; see <see cref="SendText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendText(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Text, text);

    /// <summary>Sends a text message, waiting until it is handed to the socket; see <see cref="SendText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendText(byte[] buffer) => SendText(buffer.AsSpan());

    /// <summary>Sends a text message, waiting until it is handed to the socket; see <see cref="SendText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendText(byte[] buffer, long offset, long size) => SendText(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues a text message as one frame (header and payload together: concurrent senders never interleave) and returns at once. The bytes must be valid UTF-8 (the peer fails the connection with 1007 otherwise); strings are encoded as UTF-8.</summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>True when queued; false when refused (not upgraded, a close frame sent or received, not connected, send limit).</returns>
    public bool SendTextAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Text, buffer);

    /// <summary>Queues a text message and returns at once; see <see cref="SendTextAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendTextAsync(string text) => SendTextAsync(text.AsSpan());

    /// <summary>Queues a text message and returns at once; see <see cref="SendTextAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendTextAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Text, text);

    /// <summary>Queues a text message and returns at once; see <see cref="SendTextAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendTextAsync(byte[] buffer) => SendTextAsync(buffer.AsSpan());

    /// <summary>Queues a text message and returns at once; see <see cref="SendTextAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendTextAsync(byte[] buffer, long offset, long size) => SendTextAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends a binary message as one frame and waits until it is handed to the socket (in order with queued frames). On
    /// an event loop's thread the loop is handed to another thread before it waits.
    /// </summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>Bytes of the frame on the wire; 0 when refused (not upgraded, a close frame sent or received, not connected).</returns>
    public long SendBinary(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Binary, buffer);

    /// <summary>Sends a binary message, waiting until it is handed to the socket; see <see cref="SendBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendBinary(string text) => SendBinary(text.AsSpan());

    /// <summary>Sends a binary message, waiting until it is handed to the socket; see <see cref="SendBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendBinary(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Binary, text);

    /// <summary>Sends a binary message, waiting until it is handed to the socket; see <see cref="SendBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendBinary(byte[] buffer) => SendBinary(buffer.AsSpan());

    /// <summary>Sends a binary message, waiting until it is handed to the socket; see <see cref="SendBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendBinary(byte[] buffer, long offset, long size) => SendBinary(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues a binary message as one frame (header and payload together: concurrent senders never interleave) and returns at once.</summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>True when queued; false when refused (not upgraded, a close frame sent or received, not connected, send limit).</returns>
    public bool SendBinaryAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Binary, buffer);

    /// <summary>Queues a binary message and returns at once; see <see cref="SendBinaryAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendBinaryAsync(string text) => SendBinaryAsync(text.AsSpan());

    /// <summary>Queues a binary message and returns at once; see <see cref="SendBinaryAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendBinaryAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Binary, text);

    /// <summary>Queues a binary message and returns at once; see <see cref="SendBinaryAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendBinaryAsync(byte[] buffer) => SendBinaryAsync(buffer.AsSpan());

    /// <summary>Queues a binary message and returns at once; see <see cref="SendBinaryAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendBinaryAsync(byte[] buffer, long offset, long size) => SendBinaryAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Sends a ping as one frame and waits until it is handed to the socket (in order with queued frames). At most 125 bytes (more is refused); the peer answers with a pong carrying the same bytes. On an event loop's thread the loop is handed to another thread before it waits.</summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>Bytes of the frame on the wire; 0 when refused (not upgraded, a close frame sent or received, not connected).</returns>
    public long SendPing(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Ping, buffer);

    /// <summary>Sends a ping, waiting until it is handed to the socket; see <see cref="SendPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPing(string text) => SendPing(text.AsSpan());

    /// <summary>Sends a ping, waiting until it is handed to the socket; see <see cref="SendPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPing(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Ping, text);

    /// <summary>Sends a ping, waiting until it is handed to the socket; see <see cref="SendPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPing(byte[] buffer) => SendPing(buffer.AsSpan());

    /// <summary>Sends a ping, waiting until it is handed to the socket; see <see cref="SendPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPing(byte[] buffer, long offset, long size) => SendPing(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues a ping as one frame (header and payload together: concurrent senders never interleave) and returns at once. At most 125 bytes (more is refused); the peer answers with a pong carrying the same bytes.</summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>True when queued; false when refused (not upgraded, a close frame sent or received, not connected, send limit).</returns>
    public bool SendPingAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Ping, buffer);

    /// <summary>Queues a ping and returns at once; see <see cref="SendPingAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendPingAsync(string text) => SendPingAsync(text.AsSpan());

    /// <summary>Queues a ping and returns at once; see <see cref="SendPingAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendPingAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Ping, text);

    /// <summary>Queues a ping and returns at once; see <see cref="SendPingAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendPingAsync(byte[] buffer) => SendPingAsync(buffer.AsSpan());

    /// <summary>Queues a ping and returns at once; see <see cref="SendPingAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendPingAsync(byte[] buffer, long offset, long size) => SendPingAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Sends a pong as one frame and waits until it is handed to the socket (in order with queued frames). At most 125 bytes (more is refused); an unsolicited pong is a one-way heartbeat. On an event loop's thread the loop is handed to another thread before it waits.</summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>Bytes of the frame on the wire; 0 when refused (not upgraded, a close frame sent or received, not connected).</returns>
    public long SendPong(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Pong, buffer);

    /// <summary>Sends a pong, waiting until it is handed to the socket; see <see cref="SendPong(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPong(string text) => SendPong(text.AsSpan());

    /// <summary>Sends a pong, waiting until it is handed to the socket; see <see cref="SendPong(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPong(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Pong, text);

    /// <summary>Sends a pong, waiting until it is handed to the socket; see <see cref="SendPong(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPong(byte[] buffer) => SendPong(buffer.AsSpan());

    /// <summary>Sends a pong, waiting until it is handed to the socket; see <see cref="SendPong(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendPong(byte[] buffer, long offset, long size) => SendPong(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues a pong as one frame (header and payload together: concurrent senders never interleave) and returns at once. At most 125 bytes (more is refused); an unsolicited pong is a one-way heartbeat.</summary>
    /// <param name="buffer">Payload; copied before the call returns.</param>
    /// <returns>True when queued; false when refused (not upgraded, a close frame sent or received, not connected, send limit).</returns>
    public bool SendPongAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Pong, buffer);

    /// <summary>Queues a pong and returns at once; see <see cref="SendPongAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendPongAsync(string text) => SendPongAsync(text.AsSpan());

    /// <summary>Queues a pong and returns at once; see <see cref="SendPongAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendPongAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Pong, text);

    /// <summary>Queues a pong and returns at once; see <see cref="SendPongAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendPongAsync(byte[] buffer) => SendPongAsync(buffer.AsSpan());

    /// <summary>Queues a pong and returns at once; see <see cref="SendPongAsync(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendPongAsync(byte[] buffer, long offset, long size) => SendPongAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Sends a close frame as one frame and waits until it is handed to the socket (in order with queued frames). It starts the close handshake: the status (an empty payload for one that may not travel, such as 0, 1005 or 1006) and the UTF-8 reason (cut to 123 bytes) go out once; after it no data can be sent, and the connection closes when the peer answers or <see cref="WsOptions.CloseTimeout"/> passes. On an event loop's thread the loop is handed to another thread before it waits.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">Payload (a UTF-8 reason for a close frame); copied before the call returns.</param>
    /// <returns>Bytes of the frame on the wire; 0 when refused (not upgraded, a close frame sent or received, not connected).</returns>
    public long SendClose(int status, ReadOnlySpan<byte> buffer) => _ws.SendClose(status, buffer);

    /// <summary>Sends a close frame, waiting until it is handed to the socket; see <see cref="SendClose(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendClose(int status, string text) => SendClose(status, text.AsSpan());

    /// <summary>Sends a close frame, waiting until it is handed to the socket; see <see cref="SendClose(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendClose(int status, ReadOnlySpan<char> text) => _ws.SendClose(status, text);

    /// <summary>Sends a close frame, waiting until it is handed to the socket; see <see cref="SendClose(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">Payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendClose(int status, byte[] buffer) => SendClose(status, buffer.AsSpan());

    /// <summary>Sends a close frame, waiting until it is handed to the socket; see <see cref="SendClose(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>Bytes of the frame on the wire.</returns>
    public long SendClose(int status, byte[] buffer, long offset, long size) => SendClose(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Queues a close frame as one frame (header and payload together: concurrent senders never interleave) and returns at once. It starts the close handshake: the status (an empty payload for one that may not travel, such as 0, 1005 or 1006) and the UTF-8 reason (cut to 123 bytes) go out once; after it no data can be sent, and the connection closes when the peer answers or <see cref="WsOptions.CloseTimeout"/> passes.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">Payload (a UTF-8 reason for a close frame); copied before the call returns.</param>
    /// <returns>True when queued; false when refused (not upgraded, a close frame sent or received, not connected, send limit).</returns>
    public bool SendCloseAsync(int status, ReadOnlySpan<byte> buffer) => _ws.SendCloseAsync(status, buffer);

    /// <summary>Queues a close frame and returns at once; see <see cref="SendCloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendCloseAsync(int status, string text) => SendCloseAsync(status, text.AsSpan());

    /// <summary>Queues a close frame and returns at once; see <see cref="SendCloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendCloseAsync(int status, ReadOnlySpan<char> text) => _ws.SendCloseAsync(status, text);

    /// <summary>Queues a close frame and returns at once; see <see cref="SendCloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">Payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendCloseAsync(int status, byte[] buffer) => SendCloseAsync(status, buffer.AsSpan());

    /// <summary>Queues a close frame and returns at once; see <see cref="SendCloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">Buffer holding the payload.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    /// <returns>True when queued.</returns>
    public bool SendCloseAsync(int status, byte[] buffer, long offset, long size) => SendCloseAsync(status, buffer.AsSpan(checked((int)offset), checked((int)size)));
}
