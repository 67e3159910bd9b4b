using System;
using System.Net;
using NetCoreServer.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTP/1.1 client over TCP: send a request with <see cref="SendRequestAsync(HttpRequest)"/> and get the response in
/// <see cref="OnReceivedResponse"/>. Requests on one connection are answered in order (a HEAD response has no body).
/// HTTP itself lives in one component shared with <see cref="HttpsClient"/>; this class only says it runs over TCP.
/// See <see cref="HttpClientEx"/> for requests as tasks.
/// </summary>
public partial class HttpClient : TcpClient, IHttpClientHost
{
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public HttpClient(IPAddress address, int port)
        : base(address, port) => _http = Install();

    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public HttpClient(string address, int port)
        : base(address, port) => _http = Install();

    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpClient(DnsEndPoint endpoint)
        : base(endpoint) => _http = Install();

    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpClient(IPEndPoint endpoint)
        : base(endpoint) => _http = Install();
}
