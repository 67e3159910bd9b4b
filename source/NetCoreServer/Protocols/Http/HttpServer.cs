using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Connections;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTP/1.1 server over TCP or a Unix domain socket file, which also serves HTTP/2 to clients that open with its preface
/// (h2c with prior knowledge; <see cref="HttpOptions.Http2Enabled"/>): every accepted connection is an <see cref="HttpSession"/> (override
/// <see cref="CreateSession"/> to return your subclass). Serves static content from <see cref="Cache"/> and holds the
/// limits and timeouts of its sessions in <see cref="Http"/>.
/// </summary>
public class HttpServer : TcpServer
{
    private readonly HttpSite _site = new();

    /// <summary>Creates a server for an IP address and port.</summary>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public HttpServer(IPAddress address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a server for an IP address literal or host name and a port.</summary>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public HttpServer(string address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a server for a host name endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpServer(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates a server for an IP endpoint.</summary>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public HttpServer(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>
    /// Creates a server listening on a Unix domain socket file (for a reverse proxy on the same host, or
    /// <c>curl --unix-socket</c>). The file is handled as <see cref="UdsServer"/> handles it: a stale one is removed on
    /// Start, the server's own one on Stop. <c>Address</c> is the path and <c>Port</c> 0; the TCP options
    /// (OptionNoDelay, OptionKeepAlive, OptionReuseAddress...) are not applied.
    /// </summary>
    /// <param name="endpoint">The socket file to listen on.</param>
    public HttpServer(UnixDomainSocketEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="HttpSession"/> (an <see cref="HttpsSession"/> from an <see cref="HttpsServer"/>: the twin gets these docs).</returns>
    protected override TcpSession CreateSession() => new HttpSession(this);

    /// <summary>The static content: prepared responses by URL path, refreshed when the files change.</summary>
    public FileCache Cache => _site.Cache;

    // Shared with the sessions, which read the cache and limits through it.
    internal HttpSite Site => _site;

    /// <summary>Limits and timeouts of this server's sessions.</summary>
    public HttpOptions Http => _site.Options;

    /// <summary>Serves the files under <paramref name="path"/> at URLs under <paramref name="prefix"/>.</summary>
    /// <param name="path">Directory of the files.</param>
    /// <param name="prefix">URL path they are served under (default "/").</param>
    /// <param name="filter">File name filter (default all files).</param>
    /// <param name="timeout">How long an entry lives before it is read again (default 1 hour).</param>
    public void AddStaticContent(string path, string prefix = "/", string filter = "*.*", TimeSpan? timeout = null) => _site.AddStaticContent(path, prefix, filter, timeout);

    /// <summary>Stops serving the files under <paramref name="path"/>.</summary>
    /// <param name="path">Directory given to <see cref="AddStaticContent"/>.</param>
    public void RemoveStaticContent(string path) => _site.RemoveStaticContent(path);

    /// <summary>Stops serving all static content.</summary>
    public void ClearStaticContent() => _site.ClearStaticContent();

    // Bytes from outside written into an HTTP stream would be read as (part of) a response: nothing is taken.
    private protected override RelayedVerdict MulticastRelayedLocal(MulticastKind kind, ReadOnlySpan<byte> payload, Func<StreamSession, bool>? filter)
        => RelayedVerdict.RefusedKind;

    private protected override RelayedVerdict SendRelayedLocal(TcpSession? session, MulticastKind kind, ReadOnlySpan<byte> payload)
        => RelayedVerdict.RefusedKind;
}
