using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Connections;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTPS server (HTTP/1.1 over TLS with <see cref="SslServer.Context"/>): every accepted connection is an <see cref="HttpsSession"/> (override
/// <see cref="CreateSession"/> to return your subclass). Serves static content from <see cref="Cache"/> and holds the
/// limits and timeouts of its sessions in <see cref="Http"/>.
/// </summary>
public class HttpsServer : SslServer
{
    private readonly HttpSite _site = new();

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public HttpsServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public HttpsServer(SslContext context, string address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpsServer(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpsServer(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <summary>
    /// Creates a server listening on a Unix domain socket file, TLS over it; the file is handled as
    /// <see cref="UdsServer"/> handles it (see <see cref="HttpServer(UnixDomainSocketEndPoint)"/>).
    /// </summary>
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <param name="endpoint">The socket file to listen on.</param>
    public HttpsServer(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(context, EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="HttpsSession"/>.</returns>
    protected override SslSession CreateSession() => new HttpsSession(this);

    /// <inheritdoc cref="HttpServer.Cache"/>
    public FileCache Cache => _site.Cache;

    // Shared with the sessions, which read the cache and limits through it.
    internal HttpSite Site => _site;

    /// <inheritdoc cref="HttpServer.Http"/>
    public HttpOptions Http => _site.Options;

    /// <inheritdoc cref="HttpServer.AddStaticContent(string, string, string, TimeSpan?)"/>
    public void AddStaticContent(string path, string prefix = "/", string filter = "*.*", TimeSpan? timeout = null) => _site.AddStaticContent(path, prefix, filter, timeout);

    /// <inheritdoc cref="HttpServer.RemoveStaticContent(string)"/>
    public void RemoveStaticContent(string path) => _site.RemoveStaticContent(path);

    /// <inheritdoc cref="HttpServer.ClearStaticContent()"/>
    public void ClearStaticContent() => _site.ClearStaticContent();

    // Bytes from outside written into an HTTP stream would be read as (part of) a response: nothing is taken.
    private protected override RelayedVerdict MulticastRelayedLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
        => RelayedVerdict.RefusedKind;

    private protected override RelayedVerdict SendRelayedLocal(SslSession? session, MulticastKind kind, ReadOnlySpan<byte> payload)
        => RelayedVerdict.RefusedKind;
}
