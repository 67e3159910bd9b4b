using System;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Http;

// twin: NetCoreServer.HttpClientEx NetCoreServer.HttpsClientEx
    private readonly HttpExchange _exchange = new();

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

    /// <summary>Completes the waiting request; call the base when overriding.</summary>
    /// <param name="response">The response.</param>
    protected override void OnReceivedResponse(HttpResponse response) => _exchange.Answered(response);

    /// <summary>Fails the waiting request; call the base when overriding.</summary>
    /// <param name="response">What was read of the response.</param>
    /// <param name="error">What was wrong.</param>
    protected override void OnReceivedResponseError(HttpResponse response, string error) => _exchange.Refused(error);

    /// <summary>Fails a request still waiting when the connection closes; call the base when overriding.</summary>
    protected override void OnDisconnected() => _exchange.Closed();
