using System;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Connections;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// One accepted TLS connection of an <see cref="SslServer"/>. Hook order: OnConnecting, OnConnected, OnHandshaking,
/// OnHandshaked, OnEmpty, then data; nothing is received before the handshake completes, and data sent earlier waits
/// in the queue.
/// </summary>
/// <remarks>
/// A handshake that fails or passes <see cref="SslContext.HandshakeTimeout"/> raises OnError and closes the session with
/// <see cref="NetCoreServer.DisconnectReason.HandshakeFailed"/>: AccessDenied when this side rejected the peer's
/// certificate; ProtocolNotSupported when the peer does not speak a TLS this side accepts (garbage, plaintext, a
/// malformed record, no common version or cipher, a TLS alert); TimedOut; ConnectionAborted when the connection broke.
/// </remarks>
public partial class SslSession : StreamSession
{
    // When the TLS handshake began (a Stopwatch timestamp), or 0 when nobody listened to its duration.
    private long _handshakeStartedAt;

    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public SslSession(SslServer server)
        : base(server)
    {
    }

    /// <summary>The server this session belongs to.</summary>
    public SslServer Server => (SslServer)Owner;

    private protected override IStreamTransport CreateTransport(Socket socket)
    {
        var server = Server;
        var context = server.Context;
        return TransportFactory.CreateTls(socket, server.OptionEventLoops, server.AcceptedTcpOptions, context.ServerHandshake, context.HandshakeTimeout, server.HandshakeGate, server.OptionTimeProvider);
    }

    private protected override void NotifyHandshaking()
    {
        _handshakeStartedAt = Server.Metrics?.HandshakeStart() ?? 0;
        OnHandshaking();
        Server.RaiseHandshaking(this);
    }

    private protected override void NotifyHandshaked()
    {
        Server.Metrics?.HandshakeSucceeded(_handshakeStartedAt, NegotiatedProtocol);
        OnHandshaked();
        Server.RaiseHandshaked(this);
    }

    private protected override void NotifyReleased()
    {
        if (DisconnectReason == NetCoreServer.DisconnectReason.HandshakeFailed)
            Server.Metrics?.HandshakeFailed(_handshakeStartedAt);
        base.NotifyReleased();
    }

    /// <summary>True from the end of the TLS handshake until a disconnect starts (NetCoreServer clears it on disconnect too).</summary>
    public bool IsHandshaked => TlsState.IsHandshaked(Engine);

    /// <summary>Why the last handshake failed (certificate rejected, protocol mismatch, timeout), or null.</summary>
    public Exception? HandshakeException => TlsState.HandshakeException(Engine);

    /// <summary>The TLS version agreed in the handshake (None before it).</summary>
    public System.Security.Authentication.SslProtocols NegotiatedProtocol => TlsState.Protocol(Engine);

    /// <summary>The ALPN protocol agreed in the handshake (default when none).</summary>
    public SslApplicationProtocol NegotiatedApplicationProtocol => TlsState.ApplicationProtocol(Engine);

    /// <summary>The peer's certificate, once handshaked: the server's for a client; for a session, the client's (mutual TLS only).</summary>
    public X509Certificate? RemoteCertificate => TlsState.RemoteCertificate(Engine);

    /// <summary>Called when the TLS handshake starts, after OnConnected, on the same thread (the accepting or connecting one).</summary>
    protected virtual void OnHandshaking()
    {
    }

    /// <summary>Called when the TLS handshake has completed, on the thread that completed it (usually a thread-pool I/O thread); data flows from now on.</summary>
    protected virtual void OnHandshaked()
    {
    }
}
