using System;
using System.Net;
using NetCoreServer.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTPS client (HTTP/1.1 over TLS with <see cref="SslClient.Context"/>): send a request with <see cref="SendRequestAsync(HttpRequest)"/> and get the response in
/// <see cref="OnReceivedResponse"/>. Requests on one connection are answered in order (a HEAD response has no body).
/// HTTP itself lives in one component shared with <see cref="HttpClient"/>; this class only says it runs over TLS.
/// See <see cref="HttpsClientEx"/> for requests as tasks.
/// </summary>
public partial class HttpsClient : SslClient, IHttpClientHost
{
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public HttpsClient(SslContext context, IPAddress address, int port)
        : base(context, address, port) => _http = Install();

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public HttpsClient(SslContext context, string address, int port)
        : base(context, address, port) => _http = Install();

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpsClient(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint) => _http = Install();

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpsClient(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint) => _http = Install();
}
