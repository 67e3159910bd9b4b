using System;
using System.Collections.Generic;
using System.Threading;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// WebSocket settings of a <see cref="WsServer"/>/<see cref="WssServer"/> (for all its sessions) or of a
/// <see cref="WsClient"/>/<see cref="WssClient"/>, read when a connection upgrades: changes apply to the next one.
/// Every limit has a safe default; nothing here is needed for NetCoreServer's behaviour.
/// </summary>
public sealed class WsOptions
{
    private int _maxMessageSize = WsFrameDecoder.DefaultMaxMessageSize;
    private TimeSpan _handshakeTimeout = TimeSpan.FromSeconds(10);
    private TimeSpan _closeTimeout = TimeSpan.FromSeconds(5);
    private TimeSpan _keepAliveInterval = TimeSpan.Zero;
    private TimeSpan _messageTimeout = DefaultMessageTimeout;

    /// <summary>The default <see cref="MessageTimeout"/>.</summary>
    internal static readonly TimeSpan DefaultMessageTimeout = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The largest message accepted, in bytes after decompression: 16 MiB by default. A bigger one (announced by a frame
    /// header, or reached while fragments or inflated bytes arrive) closes the connection with status 1009 and raises
    /// <c>OnWsError</c>. It bounds what one connection's receiving side can hold in memory, deflate bombs included.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public int MaxMessageSize
    {
        get => _maxMessageSize;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegativeOrZero(value);
            _maxMessageSize = value;
        }
    }

    /// <summary>
    /// Client: how long the upgrade may take, from the connection being ready (after TLS) to the server's 101: 10 seconds
    /// by default. When it passes, <c>OnWsError</c> is raised and the connection closes. A server's sessions use the HTTP
    /// limits instead (<see cref="HttpOptions"/>: a head that is not whole in time is answered 408).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public TimeSpan HandshakeTimeout
    {
        get => _handshakeTimeout;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(value, TimeSpan.Zero);
            _handshakeTimeout = value;
        }
    }

    /// <summary>
    /// How long to wait for the peer's close frame after sending ours (<c>Close</c>, <c>SendClose</c>, <c>CloseAll</c>,
    /// keep-alive): 5 seconds by default. Then the TCP connection is closed at once, so a peer that never answers
    /// cannot hold a connection open.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is not positive.</exception>
    public TimeSpan CloseTimeout
    {
        get => _closeTimeout;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(value, TimeSpan.Zero);
            _closeTimeout = value;
        }
    }

    /// <summary>
    /// Automatic keep-alive: when nothing has arrived for this long a ping is sent, and when nothing (not even the pong)
    /// has arrived for another interval the connection is closed with status 1001 and <c>OnWsError</c>. Detects peers
    /// that vanished without closing and keeps idle NAT mappings open. <see cref="TimeSpan.Zero"/> (the default) turns it off.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public TimeSpan KeepAliveInterval
    {
        get => _keepAliveInterval;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, TimeSpan.Zero);
            _keepAliveInterval = value;
        }
    }

    /// <summary>
    /// How long a message may take from its first byte to its last (all its fragments): 30 seconds by default. When it
    /// passes, <c>OnWsError</c> is raised, the connection is closed with status 1008 (policy violation) and the message's
    /// buffer is given back: a peer that starts a message and never ends it cannot hold up to
    /// <see cref="MaxMessageSize"/> bytes for as long as it stays. A 16 MiB message needs about 4.5 Mbit/s to arrive in
    /// time; raise it for large messages over slow links. <see cref="Timeout.InfiniteTimeSpan"/> turns it off.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is neither positive nor infinite.</exception>
    public TimeSpan MessageTimeout
    {
        get => _messageTimeout;
        set
        {
            if (value != Timeout.InfiniteTimeSpan)
                ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(value, TimeSpan.Zero);
            _messageTimeout = value;
        }
    }

    /// <summary>
    /// permessage-deflate (RFC 7692): a server accepts a client's offer, a client offers it. Off by default: compression
    /// costs CPU per message and about 300 KiB of zlib state per connection that keeps its context.
    /// </summary>
    public bool Deflate { get; set; }

    /// <summary>
    /// With <see cref="Deflate"/>: reset the compression contexts after every message in both directions
    /// (server_no_context_takeover and client_no_context_takeover), so an idle connection keeps no zlib state, at some
    /// cost in compression ratio. Off by default.
    /// </summary>
    public bool DeflateNoContextTakeover { get; set; }

    /// <summary>With <see cref="Deflate"/>: messages shorter than this go uncompressed (default 64 bytes, where deflate rarely wins).</summary>
    public int DeflateMinSize { get; set; } = 64;

    /// <summary>Client: the subprotocols offered in Sec-WebSocket-Protocol, most preferred first (empty by default).</summary>
    public IList<string> Subprotocols { get; } = new List<string>();

    /// <summary>
    /// Server: picks one of the subprotocols a client offered (given in the client's order), or null for none; a name
    /// the client did not offer is ignored. Null (the default) picks none.
    /// </summary>
    public Func<IReadOnlyList<string>, string?>? SelectSubprotocol { get; set; }

    /// <summary>Client: the request target of the default upgrade request (default "/"); <c>OnWsConnecting</c> may write its own request instead.</summary>
    public string Path { get; set; } = "/";

    /// <summary>What the handshake code needs of these settings.</summary>
    internal WsHandshakeOptions ToHandshake() => new()
    {
        Subprotocols = [.. Subprotocols],
        SelectSubprotocol = SelectSubprotocol,
        Deflate = Deflate ? DeflateSettings() : null,
    };

    internal WsDeflateOptions? DeflateSettings() => Deflate
        ? new WsDeflateOptions
        {
            ServerNoContextTakeover = DeflateNoContextTakeover,
            ClientNoContextTakeover = DeflateNoContextTakeover,
            MinCompressSize = DeflateMinSize,
        }
        : null;
}
