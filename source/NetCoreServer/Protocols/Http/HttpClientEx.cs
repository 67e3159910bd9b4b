using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTP client whose requests are tasks: <c>await client.SendGetRequest("/path")</c> connects when needed, sends,
/// and completes with the response (the client's reused <see cref="HttpClient.Response"/>: read it before the next
/// request). Requests run one at a time on one kept-alive connection. A request fails with
/// <see cref="TimeoutException"/>, <see cref="System.IO.IOException"/> (connect refused, connection reset or closed) or
/// <see cref="System.IO.InvalidDataException"/> (a malformed response); it never hangs past its timeout (default 1 minute).
/// </summary>
public class HttpClientEx : HttpClient
{
    private readonly HttpExchange _exchange = new();

    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public HttpClientEx(IPAddress address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public HttpClientEx(string address, int port)
        : base(address, port)
    {
    }

    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpClientEx(DnsEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpClientEx(IPEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Creates a client for a server's Unix domain socket file; requests carry <c>Host: localhost</c>.</summary>
    /// <param name="endpoint">The server's socket file.</param>
    public HttpClientEx(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Sends <c>Request</c> and completes with its response; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="timeout">How long to wait for connecting and the response (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendRequest(TimeSpan? timeout = null) => SendRequest(Request, timeout);

    /// <summary>Sends a request and completes with its response.</summary>
    /// <param name="request">The request.</param>
    /// <param name="timeout">How long to wait for connecting and the response (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendRequest(HttpRequest request, TimeSpan? timeout = null) => _exchange.Send(this, () => SendRequestAsync(request), timeout);

    /// <summary>Sends a HEAD request; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="url">Request URL.</param>
    /// <param name="timeout">How long to wait (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendHeadRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeHeadRequest(url), timeout);

    /// <summary>Sends a GET request; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="url">Request URL.</param>
    /// <param name="timeout">How long to wait (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendGetRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeGetRequest(url), timeout);

    /// <summary>Sends a POST request with a text body; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="url">Request URL.</param>
    /// <param name="content">Body text (UTF-8).</param>
    /// <param name="timeout">How long to wait (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendPostRequest(string url, string content, TimeSpan? timeout = null) => SendRequest(Request.MakePostRequest(url, content), timeout);

    /// <summary>Sends a PUT request with a text body; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="url">Request URL.</param>
    /// <param name="content">Body text (UTF-8).</param>
    /// <param name="timeout">How long to wait (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendPutRequest(string url, string content, TimeSpan? timeout = null) => SendRequest(Request.MakePutRequest(url, content), timeout);

    /// <summary>Sends a DELETE request; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="url">Request URL.</param>
    /// <param name="timeout">How long to wait (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendDeleteRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeDeleteRequest(url), timeout);

    /// <summary>Sends an OPTIONS request; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="url">Request URL.</param>
    /// <param name="timeout">How long to wait (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendOptionsRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeOptionsRequest(url), timeout);

    /// <summary>Sends a TRACE request; see <see cref="SendRequest(HttpRequest, TimeSpan?)"/>.</summary>
    /// <param name="url">Request URL.</param>
    /// <param name="timeout">How long to wait (default 1 minute).</param>
    /// <returns>The response.</returns>
    public Task<HttpResponse> SendTraceRequest(string url, TimeSpan? timeout = null) => SendRequest(Request.MakeTraceRequest(url), timeout);

    /// <summary>Completes the waiting request, on the receive thread; call the base when overriding.</summary>
    /// <param name="response">The response; reused for the next request (the task completes with this same object).</param>
    protected override void OnReceivedResponse(HttpResponse response) => _exchange.Answered(response);

    /// <summary>Fails the waiting request, on the receive thread; call the base when overriding.</summary>
    /// <param name="response">What was read of the response.</param>
    /// <param name="error">What was wrong.</param>
    protected override void OnReceivedResponseError(HttpResponse response, string error) => _exchange.Refused(error);

    /// <summary>Fails a request still waiting when the connection closes; call the base when overriding.</summary>
    protected override void OnDisconnected() => _exchange.Closed();
}
