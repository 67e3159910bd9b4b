using System;
using System.Net.Security;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Connections;

/// <summary>Reads the TLS facts of a connection through its transport, for SslSession and SslClient alike.</summary>
internal static class TlsState
{
    /// <summary>Handshaked and still connected: like NetCoreServer, a connection stops counting as handshaked when its disconnect starts.</summary>
    public static bool IsHandshaked(StreamSessionEngine? engine) => engine is { IsConnected: true } && (Tls(engine)?.IsHandshaked ?? false);

    public static Exception? HandshakeException(StreamSessionEngine? engine) => Tls(engine)?.HandshakeException;

    public static SslApplicationProtocol ApplicationProtocol(StreamSessionEngine? engine) => Tls(engine)?.ApplicationProtocol ?? default;

    public static SslProtocols Protocol(StreamSessionEngine? engine) => Tls(engine)?.Protocol ?? SslProtocols.None;

    public static TlsCipherSuite CipherSuite(StreamSessionEngine? engine) => Tls(engine)?.CipherSuite ?? default;

    public static X509Certificate? RemoteCertificate(StreamSessionEngine? engine) => Tls(engine)?.RemoteCertificate;

    private static ITlsInfo? Tls(StreamSessionEngine? engine) => engine?.Transport.Tls;
}
