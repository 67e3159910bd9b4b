using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTPS client whose requests are tasks: <c>await client.SendGetRequest("/path")</c> connects when needed, sends,
/// and completes with the response (the client's reused <see cref="HttpsClient.Response"/>: read it before the next
/// request). Requests run one at a time on one kept-alive connection. A request fails with
/// <see cref="TimeoutException"/>, <see cref="System.IO.IOException"/> (connect refused, connection reset or closed) or
/// <see cref="System.IO.InvalidDataException"/> (a malformed response); it never hangs past its timeout (default 1 minute).
/// </summary>
public class HttpsClientEx : HttpsClient
{
    private readonly HttpExchange _exchange = new();

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

    /// <inheritdoc cref="HttpClientEx.SendRequest(TimeSpan?)"/>
    public Task<HttpResponse> SendRequest(TimeSpan? timeout = null) => SendRequest(Request, timeout);

    /// <inheritdoc cref="HttpClientEx.SendRequest(HttpRequest, TimeSpan?)"/>
    public Task<HttpResponse> SendRequest(HttpRequest request, TimeSpan? timeout = null) => _exchange.Send(this, () => SendRequestAsync(request), timeout);

    /// <inheritdoc cref="HttpClientEx.SendHeadRequest(string, TimeSpan?)"/>
    public Task<HttpResponse> SendHeadRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeHeadRequest(url), timeout);

    /// <inheritdoc cref="HttpClientEx.SendGetRequest(string, TimeSpan?)"/>
    public Task<HttpResponse> SendGetRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeGetRequest(url), timeout);

    /// <inheritdoc cref="HttpClientEx.SendPostRequest(string, string, TimeSpan?)"/>
    public Task<HttpResponse> SendPostRequest(string url, string content, TimeSpan? timeout = null) => SendRequest(Request.MakePostRequest(url, content), timeout);

    /// <inheritdoc cref="HttpClientEx.SendPutRequest(string, string, TimeSpan?)"/>
    public Task<HttpResponse> SendPutRequest(string url, string content, TimeSpan? timeout = null) => SendRequest(Request.MakePutRequest(url, content), timeout);

    /// <inheritdoc cref="HttpClientEx.SendDeleteRequest(string, TimeSpan?)"/>
    public Task<HttpResponse> SendDeleteRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeDeleteRequest(url), timeout);

    /// <inheritdoc cref="HttpClientEx.SendOptionsRequest(string, TimeSpan?)"/>
    public Task<HttpResponse> SendOptionsRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeOptionsRequest(url), timeout);

    /// <inheritdoc cref="HttpClientEx.SendTraceRequest(string, TimeSpan?)"/>
    public Task<HttpResponse> SendTraceRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeTraceRequest(url), timeout);

    /// <inheritdoc cref="HttpClientEx.OnReceivedResponse(HttpResponse)"/>
    protected override void OnReceivedResponse(HttpResponse response) => _exchange.Answered(response);

    /// <inheritdoc cref="HttpClientEx.OnReceivedResponseError(HttpResponse, string)"/>
    protected override void OnReceivedResponseError(HttpResponse response, string error) => _exchange.Refused(error);

    /// <inheritdoc cref="HttpClientEx.OnDisconnected()"/>
    protected override void OnDisconnected() => _exchange.Closed();
}
