using System;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Ssl;

// twin: NetCoreServer.SslClient NetCoreServer.SslSession
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

    /// <summary>Called when the TLS handshake starts, after OnConnected.</summary>
    protected virtual void OnHandshaking()
    {
    }

    /// <summary>Called when the TLS handshake has completed; data flows from now on.</summary>
    protected virtual void OnHandshaked()
    {
    }
