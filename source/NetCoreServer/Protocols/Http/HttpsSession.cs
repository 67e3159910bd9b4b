using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// One HTTPS connection of an <see cref="HttpsServer"/> (HTTP over TLS): <see cref="HttpSession"/> over
/// <see cref="SslSession"/>, forwarding to the same HTTP component; requests arrive after the handshake.
/// </summary>
[TwinOf(typeof(HttpSession))]
public partial class HttpsSession : SslSession
{
    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public HttpsSession(HttpsServer server)
        : base(server)
    {
        _http = new HttpResponder(server.Site);
        Protocol = _http.Install(this);
    }
}
