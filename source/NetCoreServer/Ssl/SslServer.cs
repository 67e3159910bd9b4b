using System.Net;
using NetCoreServer.Core;

namespace NetCoreServer;

/// <summary>
/// TLS server: a <see cref="StreamServer{TSession}"/> whose sessions speak TLS through <see cref="Context"/>.
/// Everything the TCP server has (options, counters, Multicast, limits, graceful disconnect) works the same.
/// </summary>
public class SslServer : StreamServer<SslSession>
{
    /// <summary>Creates a TLS server for an IP address and port.</summary>
    /// <param name="context">TLS settings (server certificate, protocols, validation).</param>
    /// <param name="address">Address to listen on.</param>
    /// <param name="port">Port to listen on (0 picks a free one).</param>
    public SslServer(SslContext context, IPAddress address, int port)
        : base(EndpointSpec.Of(address, port))
    {
        Context = context;
    }

    /// <summary>Creates a TLS server for an IP address literal or host name and a port.</summary>
    /// <param name="context">TLS settings.</param>
    /// <param name="address">IP address or host name to listen on.</param>
    /// <param name="port">Port to listen on.</param>
    public SslServer(SslContext context, string address, int port)
        : base(EndpointSpec.Of(address, port))
    {
        Context = context;
    }

    /// <summary>Creates a TLS server for a host name endpoint.</summary>
    /// <param name="context">TLS settings.</param>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public SslServer(SslContext context, DnsEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
        Context = context;
    }

    /// <summary>Creates a TLS server for an IP endpoint.</summary>
    /// <param name="context">TLS settings.</param>
    /// <param name="endpoint">Endpoint to listen on.</param>
    public SslServer(SslContext context, IPEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
        Context = context;
    }

    /// <summary>TLS settings; read by each session when its handshake starts.</summary>
    public SslContext Context { get; }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="SslSession"/>.</returns>
    protected override SslSession CreateSession() => new(this);

    /// <summary>Called after the session's own OnHandshaking, when its TLS handshake starts.</summary>
    /// <param name="session">The session.</param>
    protected virtual void OnHandshaking(SslSession session)
    {
    }

    /// <summary>Called after the session's own OnHandshaked; data flows from now on.</summary>
    /// <param name="session">The session.</param>
    protected virtual void OnHandshaked(SslSession session)
    {
    }

    internal void RaiseHandshaking(SslSession session) => OnHandshaking(session);

    internal void RaiseHandshaked(SslSession session) => OnHandshaked(session);
}
