using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Protocols;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// A WebSocket server over TCP or a Unix domain socket file (also an HTTP server: static content and ordinary requests keep working). Every
/// connection is a <see cref="WsSession"/> (override <see cref="CreateSession"/> for your subclass). Send to all
/// clients with <see cref="MulticastText(ReadOnlySpan{byte})"/>, close them all with <see cref="CloseAll(int, ReadOnlySpan{byte})"/>;
/// settings are in <see cref="Ws"/> and, for the HTTP part, <see cref="HttpServer.Http"/>.
/// </summary>
public class WsServer : HttpServer, IWebSocket, IWsServerHost
{
    private readonly WsMulticaster _ws;

    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public WsServer(IPAddress address, int port)
        : base(address, port)
        => _ws = new WsMulticaster(this);

    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public WsServer(string address, int port)
        : base(address, port)
        => _ws = new WsMulticaster(this);

    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WsServer(DnsEndPoint endpoint)
        : base(endpoint)
        => _ws = new WsMulticaster(this);

    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WsServer(IPEndPoint endpoint)
        : base(endpoint)
        => _ws = new WsMulticaster(this);

    /// <summary>
    /// Creates a server listening on a Unix domain socket file; the file is handled as <see cref="UdsServer"/> handles
    /// it (see <see cref="HttpServer(UnixDomainSocketEndPoint)"/>).
    /// </summary>
    /// <param name="endpoint">The socket file to listen on.</param>
    public WsServer(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
        => _ws = new WsMulticaster(this);

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="WsSession"/> (a <see cref="WssSession"/> from a <see cref="WssServer"/>: the twin gets these docs).</returns>
    protected override TcpSession CreateSession() => new WsSession(this);

    /// <summary>WebSocket settings of this server's sessions (message size limit, close timeout, keep-alive, deflate, subprotocols).</summary>
    public WsOptions Ws => _ws.Options;

    /// <summary>
    /// Queues the same raw bytes on every session that has upgraded and not started closing (plain HTTP sessions get
    /// nothing), as NetCoreServer's WsServer does; the bytes must be whole frames. Copied once, and a session that does
    /// not read is handled by <see cref="StreamServer{TSession}.OptionSlowConsumerPolicy"/>, as for any server.
    /// </summary>
    /// <param name="buffer">Whole frames to send.</param>
    /// <returns>False if the server is not started.</returns>
    public override bool Multicast(ReadOnlySpan<byte> buffer) => base.Multicast(buffer);

    private protected override bool ReceivesMulticast(StreamSession session) => WsMulticaster.ReceivesMulticast(session);

    /// <summary>
    /// Starts the close handshake with every upgraded session: one close frame (the status, an empty payload for one that
    /// may not travel, and the UTF-8 reason cut to 123 bytes) is encoded once and queued on each; each session closes
    /// when its client answers or <see cref="WsOptions.CloseTimeout"/> passes. Sessions that have not upgraded are disconnected.
    /// </summary>
    /// <param name="status">The close status (1001 going away suits a shutdown).</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, ReadOnlySpan<byte> buffer) => _ws.CloseAll(status, buffer);

    /// <summary>Closes every session with status 1000; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll() => CloseAll(1000, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes every session with a status; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status) => CloseAll(status, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, string text) => CloseAll(status, text.AsSpan());

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return CloseAll(status, bytes.Span);
    }

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, byte[] buffer) => CloseAll(status, buffer.AsSpan());

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">Buffer holding the UTF-8 reason.</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, byte[] buffer, long offset, long size) => CloseAll(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Sends a text message (UTF-8) to every upgraded session that is not closing: the frame is encoded once and the same bytes are
    /// queued on every session (see <see cref="Multicast(ReadOnlySpan{byte})"/>). It is never compressed, which
    /// permessage-deflate allows for any message. With a <see cref="StreamServer.MulticastRelay"/>, the payload then
    /// goes to it as <see cref="MulticastKind.Text"/> (the raw frame does not).
    /// </summary>
    /// <param name="buffer">Payload (copied once before the call returns).</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(ReadOnlySpan<byte> buffer) => _ws.Multicast(WsOpcode.Text, buffer);

    /// <summary>Multicasts a text message (UTF-8); see <see cref="MulticastText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(string text) => MulticastText(text.AsSpan());

    /// <summary>Multicasts a text message (UTF-8); see <see cref="MulticastText(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastText(ReadOnlySpan<char> text) => _ws.Multicast(WsOpcode.Text, text);

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
    /// permessage-deflate allows for any message. With a <see cref="StreamServer.MulticastRelay"/>, the payload then
    /// goes to it as <see cref="MulticastKind.Binary"/> (the raw frame does not).
    /// </summary>
    /// <param name="buffer">Payload (copied once before the call returns).</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(ReadOnlySpan<byte> buffer) => _ws.Multicast(WsOpcode.Binary, buffer);

    /// <summary>Multicasts a binary message; see <see cref="MulticastBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(string text) => MulticastBinary(text.AsSpan());

    /// <summary>Multicasts a binary message; see <see cref="MulticastBinary(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastBinary(ReadOnlySpan<char> text) => _ws.Multicast(WsOpcode.Binary, text);

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
    public bool MulticastPing(ReadOnlySpan<byte> buffer) => _ws.Multicast(WsOpcode.Ping, buffer);

    /// <summary>Multicasts a ping (at most 125 bytes); see <see cref="MulticastPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastPing(string text) => MulticastPing(text.AsSpan());

    /// <summary>Multicasts a ping (at most 125 bytes); see <see cref="MulticastPing(ReadOnlySpan{byte})"/>.</summary>
    /// <param name="text">Text, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public bool MulticastPing(ReadOnlySpan<char> text) => _ws.Multicast(WsOpcode.Ping, text);

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

    IProtocolSession[] IWsServerHost.Sessions => SessionSnapshot;

    bool IWsServerHost.PublishFrames(ReadOnlySpan<byte> frames, Delegate? filter) => PublishLocal(frames, (Func<StreamSession, bool>?)filter);

    private protected override bool MulticastMessageLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
        => _ws.MulticastLocal(WsMulticaster.OpcodeOf(kind), payload, filter);

    private protected override bool SendKind(TcpSession session, MulticastKind kind, ReadOnlySpan<byte> payload)
        => WsMulticaster.SendKind(session, kind, payload);

    private protected override RelayedVerdict MulticastRelayedLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
        => _ws.MulticastRelayed(kind, payload, filter);

    private protected override RelayedVerdict SendRelayedLocal(TcpSession? session, MulticastKind kind, ReadOnlySpan<byte> payload)
        => WsMulticaster.SendRelayed(session, kind, payload, _ws.Options.MaxMessageSize);
}
