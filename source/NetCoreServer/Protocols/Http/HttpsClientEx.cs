using System;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer;

/// <summary>
/// An HTTPS client whose requests are tasks: <c>await client.SendGetRequest("/path")</c> connects when needed, sends,
/// and completes with the response (the client's reused <see cref="HttpsClient.Response"/>: read it before the next
/// request). Requests run one at a time on one kept-alive connection. A request fails with
/// <see cref="TimeoutException"/>, <see cref="System.IO.IOException"/> (connect refused, connection reset or closed) or
/// <see cref="System.IO.InvalidDataException"/> (a malformed response); it never hangs past its timeout (default 1 minute).
/// </summary>
[TwinOf(typeof(HttpClientEx))]
public partial class HttpsClientEx : HttpsClient
{
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public HttpsClientEx(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public HttpsClientEx(SslContext context, string address, int port)
        : base(context, address, port)
    {
    }

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpsClientEx(SslContext context, DnsEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpsClientEx(SslContext context, IPEndPoint endpoint)
        : base(context, endpoint)
    {
    }

    /// <summary>Creates a client for a server's Unix domain socket file; see <see cref="HttpsClient(SslContext, UnixDomainSocketEndPoint)"/>.</summary>
    /// <param name="context">TLS settings (validation, client certificate, protocols).</param>
    /// <param name="endpoint">The server's socket file.</param>
    public HttpsClientEx(SslContext context, UnixDomainSocketEndPoint endpoint)
        : base(context, endpoint)
    {
    }
}
