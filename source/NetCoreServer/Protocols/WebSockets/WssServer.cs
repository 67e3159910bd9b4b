using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Protocols;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// A secure WebSocket server (WebSocket over TLS with <see cref="SslServer.Context"/>; also an HTTPS server: static content and ordinary requests keep working). Every
/// connection is a <see cref="WssSession"/> (override <see cref="CreateSession"/> for your subclass). Send to all
/// clients with <see cref="MulticastText(ReadOnlySpan{byte})"/>, close them all with <see cref="CloseAll(int, ReadOnlySpan{byte})"/>;
/// settings are in <see cref="Ws"/> and, for the HTTP part, <see cref="HttpsServer.Http"/>.
/// </summary>
public class WssServer : HttpsServer, IWebSocket, IWsServerHost
{
    private readonly WsMulticaster _ws;

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public WssServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
        => _ws = new WsMulticaster(this);

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public WssServer(SslContext context, string address, int port)
        : base(context, address, port)
        => _ws = new WsMulticaster(this);

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WssServer(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsMulticaster(this);

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public WssServer(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsMulticaster(this);

    /// <summary>
    /// Creates a server listening on a Unix domain socket file, TLS over it; the file is handled as
    /// <see cref="UdsServer"/> handles it (see <see cref="HttpServer(UnixDomainSocketEndPoint)"/>).
    /// </summary>
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <param name="endpoint">The socket file to listen on.</param>
    public WssServer(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(context, endpoint)
        => _ws = new WsMulticaster(this);

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="WssSession"/>.</returns>
    protected override SslSession CreateSession() => new WssSession(this);

    /// <inheritdoc cref="WsServer.Ws"/>
    public WsOptions Ws => _ws.Options;

    /// <inheritdoc cref="WsServer.Multicast(ReadOnlySpan{byte})"/>
    public override bool Multicast(ReadOnlySpan<byte> buffer) => base.Multicast(buffer);

    private protected override bool ReceivesMulticast(StreamSession session) => WsMulticaster.ReceivesMulticast(session);

    /// <inheritdoc cref="WsServer.CloseAll(int, ReadOnlySpan{byte})"/>
    public virtual bool CloseAll(int status, ReadOnlySpan<byte> buffer) => _ws.CloseAll(status, buffer);

    /// <inheritdoc cref="WsServer.CloseAll()"/>
    public virtual bool CloseAll() => CloseAll(1000, ReadOnlySpan<byte>.Empty);

    /// <inheritdoc cref="WsServer.CloseAll(int)"/>
    public virtual bool CloseAll(int status) => CloseAll(status, ReadOnlySpan<byte>.Empty);

    /// <inheritdoc cref="WsServer.CloseAll(int, string)"/>
    public virtual bool CloseAll(int status, string text) => CloseAll(status, text.AsSpan());

    /// <inheritdoc cref="WsServer.CloseAll(int, ReadOnlySpan{char})"/>
    public virtual bool CloseAll(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return CloseAll(status, bytes.Span);
    }

    /// <inheritdoc cref="WsServer.CloseAll(int, byte[])"/>
    public virtual bool CloseAll(int status, byte[] buffer) => CloseAll(status, buffer.AsSpan());

    /// <inheritdoc cref="WsServer.CloseAll(int, byte[], long, long)"/>
    public virtual bool CloseAll(int status, byte[] buffer, long offset, long size) => CloseAll(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsServer.MulticastText(ReadOnlySpan{byte})"/>
    public bool MulticastText(ReadOnlySpan<byte> buffer) => _ws.Multicast(WsOpcode.Text, buffer);

    /// <inheritdoc cref="WsServer.MulticastText(string)"/>
    public bool MulticastText(string text) => MulticastText(text.AsSpan());

    /// <inheritdoc cref="WsServer.MulticastText(ReadOnlySpan{char})"/>
    public bool MulticastText(ReadOnlySpan<char> text) => _ws.Multicast(WsOpcode.Text, text);

    /// <inheritdoc cref="WsServer.MulticastText(byte[])"/>
    public bool MulticastText(byte[] buffer) => MulticastText(buffer.AsSpan());

    /// <inheritdoc cref="WsServer.MulticastText(byte[], long, long)"/>
    public bool MulticastText(byte[] buffer, long offset, long size) => MulticastText(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsServer.MulticastBinary(ReadOnlySpan{byte})"/>
    public bool MulticastBinary(ReadOnlySpan<byte> buffer) => _ws.Multicast(WsOpcode.Binary, buffer);

    /// <inheritdoc cref="WsServer.MulticastBinary(string)"/>
    public bool MulticastBinary(string text) => MulticastBinary(text.AsSpan());

    /// <inheritdoc cref="WsServer.MulticastBinary(ReadOnlySpan{char})"/>
    public bool MulticastBinary(ReadOnlySpan<char> text) => _ws.Multicast(WsOpcode.Binary, text);

    /// <inheritdoc cref="WsServer.MulticastBinary(byte[])"/>
    public bool MulticastBinary(byte[] buffer) => MulticastBinary(buffer.AsSpan());

    /// <inheritdoc cref="WsServer.MulticastBinary(byte[], long, long)"/>
    public bool MulticastBinary(byte[] buffer, long offset, long size) => MulticastBinary(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsServer.MulticastPing(ReadOnlySpan{byte})"/>
    public bool MulticastPing(ReadOnlySpan<byte> buffer) => _ws.Multicast(WsOpcode.Ping, buffer);

    /// <inheritdoc cref="WsServer.MulticastPing(string)"/>
    public bool MulticastPing(string text) => MulticastPing(text.AsSpan());

    /// <inheritdoc cref="WsServer.MulticastPing(ReadOnlySpan{char})"/>
    public bool MulticastPing(ReadOnlySpan<char> text) => _ws.Multicast(WsOpcode.Ping, text);

    /// <inheritdoc cref="WsServer.MulticastPing(byte[])"/>
    public bool MulticastPing(byte[] buffer) => MulticastPing(buffer.AsSpan());

    /// <inheritdoc cref="WsServer.MulticastPing(byte[], long, long)"/>
    public bool MulticastPing(byte[] buffer, long offset, long size) => MulticastPing(buffer.AsSpan(checked((int)offset), checked((int)size)));

    IProtocolSession[] IWsServerHost.Sessions => SessionSnapshot;

    bool IWsServerHost.PublishFrames(ReadOnlySpan<byte> frames, Delegate? filter) => PublishLocal(frames, (Func<StreamSession, bool>?)filter);

    private protected override bool MulticastMessageLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
        => _ws.MulticastLocal(WsMulticaster.OpcodeOf(kind), payload, filter);

    private protected override bool SendKind(SslSession session, MulticastKind kind, ReadOnlySpan<byte> payload)
        => WsMulticaster.SendKind(session, kind, payload);

    private protected override RelayedVerdict MulticastRelayedLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
        => _ws.MulticastRelayed(kind, payload, filter);

    private protected override RelayedVerdict SendRelayedLocal(SslSession? session, MulticastKind kind, ReadOnlySpan<byte> payload)
        => WsMulticaster.SendRelayed(session, kind, payload, _ws.Options.MaxMessageSize);
}
