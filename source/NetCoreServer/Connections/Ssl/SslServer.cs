using System.Net;
using NetCoreServer.Connections;
using NetCoreServer.Transports.Tls;

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

    /// <summary>Creates a TLS server for any endpoint; the HTTPS servers reach the socket-file form through it.</summary>
    /// <param name="context">TLS settings.</param>
    /// <param name="target">The endpoint, and the address and port as given by the user.</param>
    private protected SslServer(SslContext context, EndpointSpec target)
        : base(target)
    {
        Context = context;
    }

    /// <summary>Default of <see cref="OptionMaxPendingHandshakes"/>.</summary>
    public const int DefaultMaxPendingHandshakes = 512;

    private readonly HandshakeGate _handshakes = new(DefaultMaxPendingHandshakes, dropOldest: true);

    /// <summary>TLS settings; read by each session when its handshake starts.</summary>
    public SslContext Context { get; }

    /// <summary>
    /// Most TLS handshakes under way at once (counted from accept until the handshake succeeds, fails or times out).
    /// Bounds the memory that peers which open connections and never finish a handshake can take (each pending
    /// handshake holds tens of kilobytes until <see cref="SslContext.HandshakeTimeout"/>). What happens at the cap is
    /// <see cref="OptionPendingHandshakePolicy"/>. Default <see cref="DefaultMaxPendingHandshakes"/>; 0 means no cap.
    /// </summary>
    public int OptionMaxPendingHandshakes
    {
        get => _handshakes.Max;
        set => _handshakes.Max = value;
    }

    /// <summary>
    /// At <see cref="OptionMaxPendingHandshakes"/>: drop the oldest pending handshake for the new connection (the
    /// default, <see cref="PendingHandshakePolicy.DropOldest"/>), or stop accepting until one ends
    /// (<see cref="PendingHandshakePolicy.WaitInBacklog"/>: new connections wait in the listen backlog,
    /// <see cref="StreamServer.OptionAcceptorBacklog"/>).
    /// </summary>
    public PendingHandshakePolicy OptionPendingHandshakePolicy
    {
        get => _handshakes.DropOldest ? PendingHandshakePolicy.DropOldest : PendingHandshakePolicy.WaitInBacklog;
        set => _handshakes.DropOldest = value == PendingHandshakePolicy.DropOldest;
    }

    /// <summary>TLS handshakes under way now.</summary>
    public int PendingHandshakes => _handshakes.Pending;

    private protected override HandshakeGate Handshakes => _handshakes;

    internal HandshakeGate HandshakeGate => _handshakes;

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="SslSession"/>.</returns>
    protected override SslSession CreateSession() => new(this);

    /// <summary>Called after the session's own OnHandshaking, when its TLS handshake starts; on the accepting thread.</summary>
    /// <param name="session">The session.</param>
    protected virtual void OnHandshaking(SslSession session)
    {
    }

    /// <summary>Called after the session's own OnHandshaked, on the same thread; data flows from now on.</summary>
    /// <param name="session">The session.</param>
    protected virtual void OnHandshaked(SslSession session)
    {
    }

    internal void RaiseHandshaking(SslSession session) => OnHandshaking(session);

    internal void RaiseHandshaked(SslSession session) => OnHandshaked(session);
}
