using System;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using NetCoreServer.Connections;
using NetCoreServer.Transports;
using NetCoreServer.Transports.Tls;

namespace NetCoreServer;

/// <summary>
/// TLS client over TCP. Hook order: OnConnecting, OnConnected, OnHandshaking, OnHandshaked, OnEmpty, then data.
/// The synchronous <see cref="StreamClient.Connect"/> also completes the handshake before it returns. The server name
/// checked against the certificate (and sent as SNI) is the address or host name given to the constructor.
/// </summary>
public partial class SslClient : IpStreamClient
{
    /// <summary>Creates a TLS client for an IP address and port.</summary>
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public SslClient(SslContext context, IPAddress address, int port)
        : base(EndpointSpec.Of(address, port))
    {
        Context = context;
    }

    /// <summary>Creates a TLS client for an IP address literal or a host name, and a port.</summary>
    /// <param name="context">TLS settings.</param>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public SslClient(SslContext context, string address, int port)
        : base(EndpointSpec.Of(address, port))
    {
        Context = context;
    }

    /// <summary>Creates a TLS client for a host name endpoint.</summary>
    /// <param name="context">TLS settings.</param>
    /// <param name="endpoint">Server endpoint.</param>
    public SslClient(SslContext context, DnsEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
        Context = context;
    }

    /// <summary>Creates a TLS client for an IP endpoint.</summary>
    /// <param name="context">TLS settings.</param>
    /// <param name="endpoint">Server endpoint.</param>
    public SslClient(SslContext context, IPEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
        Context = context;
    }

    /// <summary>Creates a TLS client for a server's Unix domain socket file; the server name checked is <c>localhost</c> unless <see cref="TargetHost"/> says otherwise.</summary>
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <param name="endpoint">The server's socket file.</param>
    public SslClient(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
        Context = context;
    }

    /// <summary>TLS settings; read when each handshake starts.</summary>
    public SslContext Context { get; }

    /// <summary>
    /// The server name sent as SNI and checked against the server certificate. Defaults to the host name or address
    /// given to the constructor; set it when connecting by IP address to a server known by name.
    /// </summary>
    public string? TargetHost { get; set; }

    /// <summary>True while connected and the handshake has not completed yet.</summary>
    public bool IsHandshaking => IsConnected && !IsHandshaked;

    private protected override IStreamTransport CreateTransport(Socket socket)
    {
        var context = Context;
        var host = TargetHost ?? Endpoint switch
        {
            DnsEndPoint dns => dns.Host,
            UnixDomainSocketEndPoint => "localhost",
            _ => Address,
        };
        return TransportFactory.CreateTls(socket, OptionEventLoops, TcpOptions,
            (ssl, rejected, cancel) => ssl.AuthenticateAsClientAsync(TlsHandshake.ClientOptions(context, host, rejected), cancel), context.HandshakeTimeout, time: OptionTimeProvider);
    }

    private protected override void NotifyHandshaking() => OnHandshaking();

    private protected override void NotifyHandshaked() => OnHandshaked();

    /// <inheritdoc cref="SslSession.IsHandshaked"/>
    public bool IsHandshaked => TlsState.IsHandshaked(Engine);

    /// <inheritdoc cref="SslSession.HandshakeException"/>
    public Exception? HandshakeException => TlsState.HandshakeException(Engine);

    /// <inheritdoc cref="SslSession.NegotiatedProtocol"/>
    public System.Security.Authentication.SslProtocols NegotiatedProtocol => TlsState.Protocol(Engine);

    /// <inheritdoc cref="SslSession.NegotiatedApplicationProtocol"/>
    public SslApplicationProtocol NegotiatedApplicationProtocol => TlsState.ApplicationProtocol(Engine);

    /// <inheritdoc cref="SslSession.RemoteCertificate"/>
    public X509Certificate? RemoteCertificate => TlsState.RemoteCertificate(Engine);

    /// <inheritdoc cref="SslSession.OnHandshaking()"/>
    protected virtual void OnHandshaking()
    {
    }

    /// <inheritdoc cref="SslSession.OnHandshaked()"/>
    protected virtual void OnHandshaked()
    {
    }
}
