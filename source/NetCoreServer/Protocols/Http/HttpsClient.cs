using System.Net;
using System.Net.Sockets;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTPS client (HTTP/1.1 over TLS with <see cref="SslClient.Context"/>): send a request with <see cref="SendRequestAsync(HttpRequest)"/> and get the response in
/// <see cref="OnReceivedResponse"/>. Requests on one connection are answered in order (a HEAD response has no body).
/// Hooks run on the receive thread, after the TLS handshake. See <see cref="HttpsClientEx"/> for requests as tasks.
/// </summary>
[TwinOf(typeof(HttpClient))]
public partial class HttpsClient : SslClient
{
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public HttpsClient(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public HttpsClient(SslContext context, string address, int port)
        : base(context, address, port)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpsClient(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpsClient(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <summary>Creates a client for a server's Unix domain socket file; requests carry <c>Host: localhost</c> and TLS checks the name <c>localhost</c>.</summary>
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <param name="endpoint">The server's socket file.</param>
    public HttpsClient(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(context, endpoint)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }
}
