using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTPS client (HTTP/1.1 over TLS with <see cref="SslClient.Context"/>): send a request with <see cref="SendRequestAsync(HttpRequest)"/> and get the response in
/// <see cref="OnReceivedResponse"/>. Requests on one connection are answered in order (a HEAD response has no body).
/// Hooks run on the receive thread, after the TLS handshake. See <see cref="HttpsClientEx"/> for requests as tasks.
/// </summary>
public class HttpsClient : SslClient, IHttpClientHost
{
    private readonly HttpRequester _http;

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

    /// <inheritdoc cref="HttpClient.Request"/>
    public HttpRequest Request
    {
        get => _http.Request;
        protected set => _http.Request = value;
    }

    /// <inheritdoc cref="HttpClient.Response"/>
    protected HttpResponse Response
    {
        get => _http.Response;
        set => _http.Response = value;
    }

    /// <inheritdoc cref="HttpClient.SendRequest()"/>
    public long SendRequest() => _http.SendRequest(Request);

    /// <inheritdoc cref="HttpClient.SendRequest(HttpRequest)"/>
    public long SendRequest(HttpRequest request) => _http.SendRequest(request);

    /// <inheritdoc cref="HttpClient.SendRequestBody(string)"/>
    public long SendRequestBody(string body) => Send(body);

    /// <inheritdoc cref="HttpClient.SendRequestBody(ReadOnlySpan{char})"/>
    public long SendRequestBody(ReadOnlySpan<char> body) => Send(body);

    /// <inheritdoc cref="HttpClient.SendRequestBody(byte[])"/>
    public long SendRequestBody(byte[] buffer) => Send(buffer);

    /// <inheritdoc cref="HttpClient.SendRequestBody(byte[], long, long)"/>
    public long SendRequestBody(byte[] buffer, long offset, long size) => Send(buffer, offset, size);

    /// <inheritdoc cref="HttpClient.SendRequestBody(ReadOnlySpan{byte})"/>
    public long SendRequestBody(ReadOnlySpan<byte> buffer) => Send(buffer);

    /// <inheritdoc cref="HttpClient.SendRequestAsync()"/>
    public bool SendRequestAsync() => _http.SendRequestAsync(Request);

    /// <inheritdoc cref="HttpClient.SendRequestAsync(HttpRequest)"/>
    public bool SendRequestAsync(HttpRequest request) => _http.SendRequestAsync(request);

    /// <inheritdoc cref="HttpClient.SendRequestBodyAsync(string)"/>
    public bool SendRequestBodyAsync(string body) => SendAsync(body);

    /// <inheritdoc cref="HttpClient.SendRequestBodyAsync(ReadOnlySpan{char})"/>
    public bool SendRequestBodyAsync(ReadOnlySpan<char> body) => SendAsync(body);

    /// <inheritdoc cref="HttpClient.SendRequestBodyAsync(byte[])"/>
    public bool SendRequestBodyAsync(byte[] buffer) => SendAsync(buffer);

    /// <inheritdoc cref="HttpClient.SendRequestBodyAsync(byte[], long, long)"/>
    public bool SendRequestBodyAsync(byte[] buffer, long offset, long size) => SendAsync(buffer, offset, size);

    /// <inheritdoc cref="HttpClient.SendRequestBodyAsync(ReadOnlySpan{byte})"/>
    public bool SendRequestBodyAsync(ReadOnlySpan<byte> buffer) => SendAsync(buffer);

    /// <inheritdoc cref="HttpClient.OnReceivedResponseHeader(HttpResponse)"/>
    protected virtual void OnReceivedResponseHeader(HttpResponse response)
    {
    }

    /// <inheritdoc cref="HttpClient.OnReceivedResponse(HttpResponse)"/>
    protected virtual void OnReceivedResponse(HttpResponse response)
    {
    }

    /// <inheritdoc cref="HttpClient.OnReceivedResponseError(HttpResponse, string)"/>
    protected virtual void OnReceivedResponseError(HttpResponse response, string error)
    {
    }

    private protected override void NotifyConnected()
    {
        _http.Connected();
        base.NotifyConnected();
    }

    private protected override void NotifyDisconnecting()
    {
        _http.Disconnecting(DisconnectReason);
        base.NotifyDisconnecting();
    }

    void IHttpClientHost.RaiseResponseHeader(HttpResponse response) => OnReceivedResponseHeader(response);

    void IHttpClientHost.RaiseResponse(HttpResponse response) => OnReceivedResponse(response);

    void IHttpClientHost.RaiseResponseError(HttpResponse response, string error) => OnReceivedResponseError(response, error);

    bool IHttpClientHost.SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking) => SendMessage(head, body, blocking);

    void IHttpClientHost.Disconnect() => DisconnectAsync();

    string IHttpClientHost.HostField => HttpRequester.HostField(Endpoint);
}
