using System;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Core;
using NetCoreServer.Transports;

namespace NetCoreServer.Ssl;

/// <summary>Reads the TLS facts of a connection from its transport, for SslSession and SslClient alike.</summary>
internal static class TlsState
{
    /// <summary>Handshaked and still connected: like NetCoreServer, a connection stops counting as handshaked when its disconnect starts.</summary>
    public static bool IsHandshaked(StreamSessionEngine? engine) => engine is { IsConnected: true, Transport: TlsTransport { IsHandshaked: true } };

    public static Exception? HandshakeException(StreamSessionEngine? engine) => (engine?.Transport as TlsTransport)?.HandshakeException;

    public static SslApplicationProtocol ApplicationProtocol(StreamSessionEngine? engine)
        => engine?.Transport is TlsTransport { IsHandshaked: true } tls ? tls.Stream.NegotiatedApplicationProtocol : default;

    public static System.Security.Authentication.SslProtocols Protocol(StreamSessionEngine? engine)
        => engine?.Transport is TlsTransport { IsHandshaked: true } tls ? tls.Stream.SslProtocol : System.Security.Authentication.SslProtocols.None;

    public static X509Certificate? RemoteCertificate(StreamSessionEngine? engine)
        => engine?.Transport is TlsTransport { IsHandshaked: true } tls ? tls.Stream.RemoteCertificate : null;
}
