using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Connections;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTP/1.1 client over TCP or a Unix domain socket file: send a request with <see cref="SendRequestAsync(HttpRequest)"/> and get the response in
/// <see cref="OnReceivedResponse"/>. Requests on one connection are answered in order (a HEAD response has no body).
/// Hooks run on the receive thread. See <see cref="HttpClientEx"/> for requests as tasks.
/// </summary>
public class HttpClient : TcpClient, IHttpClientHost
{
    private readonly HttpRequester _http;

    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public HttpClient(IPAddress address, int port)
        : base(address, port)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public HttpClient(string address, int port)
        : base(address, port)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpClient(DnsEndPoint endpoint)
        : base(endpoint)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public HttpClient(IPEndPoint endpoint)
        : base(endpoint)
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <summary>Creates a client for a server's Unix domain socket file; requests carry <c>Host: localhost</c>.</summary>
    /// <param name="endpoint">The server's socket file.</param>
    public HttpClient(UnixDomainSocketEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
        _http = new HttpRequester(this);
        Protocol = _http.Protocol;
    }

    /// <summary>A request to fill and send (reused).</summary>
    public HttpRequest Request
    {
        get => _http.Request;
        protected set => _http.Request = value;
    }

    /// <summary>
    /// The response being received (reused for every response of the connection; copy what you keep). Setting another
    /// one makes the next response arrive there.
    /// </summary>
    protected HttpResponse Response
    {
        get => _http.Response;
        set => _http.Response = value;
    }

    /// <summary>Sends <see cref="Request"/> and waits until it is handed to the socket.</summary>
    /// <returns>Bytes of the request; 0 when not connected.</returns>
    public long SendRequest() => _http.SendRequest(Request);

    /// <summary>
    /// Sends a request (head and body as one unit) and waits until it is handed to the socket. On an event loop's thread
    /// a wait hands the loop to another thread first.
    /// </summary>
    /// <param name="request">The request; not kept after the call returns.</param>
    /// <returns>Bytes of the request; 0 when not connected.</returns>
    public long SendRequest(HttpRequest request) => _http.SendRequest(request);

    /// <summary>Sends more body bytes of a request whose head declared them, waiting until sent.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>Bytes sent.</returns>
    public long SendRequestBody(string body) => Send(body);

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendRequestBody(string)"/>.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>Bytes sent.</returns>
    public long SendRequestBody(ReadOnlySpan<char> body) => Send(body);

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendRequestBody(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendRequestBody(byte[] buffer) => Send(buffer);

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendRequestBody(string)"/>.</summary>
    /// <param name="buffer">Buffer holding the body bytes.</param>
    /// <param name="offset">Offset of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendRequestBody(byte[] buffer, long offset, long size) => Send(buffer, offset, size);

    /// <summary>Sends more body bytes, waiting until sent; see <see cref="SendRequestBody(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>Bytes sent.</returns>
    public long SendRequestBody(ReadOnlySpan<byte> buffer) => Send(buffer);

    /// <summary>Queues <see cref="Request"/> and returns at once.</summary>
    /// <returns>True when queued.</returns>
    public bool SendRequestAsync() => _http.SendRequestAsync(Request);

    /// <summary>Queues a request (head and body as one unit, copied) and returns at once.</summary>
    /// <param name="request">The request.</param>
    /// <returns>True when queued.</returns>
    public bool SendRequestAsync(HttpRequest request) => _http.SendRequestAsync(request);

    /// <summary>Queues more body bytes of a request whose head declared them.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendRequestBodyAsync(string body) => SendAsync(body);

    /// <summary>Queues more body bytes; see <see cref="SendRequestBodyAsync(string)"/>.</summary>
    /// <param name="body">Body text, sent as UTF-8.</param>
    /// <returns>True when queued.</returns>
    public bool SendRequestBodyAsync(ReadOnlySpan<char> body) => SendAsync(body);

    /// <summary>Queues more body bytes; see <see cref="SendRequestBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendRequestBodyAsync(byte[] buffer) => SendAsync(buffer);

    /// <summary>Queues more body bytes; see <see cref="SendRequestBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Buffer holding the body bytes.</param>
    /// <param name="offset">Offset of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendRequestBodyAsync(byte[] buffer, long offset, long size) => SendAsync(buffer, offset, size);

    /// <summary>Queues more body bytes; see <see cref="SendRequestBodyAsync(string)"/>.</summary>
    /// <param name="buffer">Body bytes.</param>
    /// <returns>True when queued.</returns>
    public bool SendRequestBodyAsync(ReadOnlySpan<byte> buffer) => SendAsync(buffer);

    /// <summary>Called on the receive thread when a response head has arrived, before its body.</summary>
    /// <param name="response">The response so far (status, headers); reused for the next response.</param>
    protected virtual void OnReceivedResponseHeader(HttpResponse response)
    {
    }

    /// <summary>Called on the receive thread for each complete response, in the order of the requests.</summary>
    /// <param name="response">The response (reused: valid until the next response arrives; copy what you keep).</param>
    protected virtual void OnReceivedResponse(HttpResponse response)
    {
    }

    /// <summary>Called on the receive thread for a response that cannot be read; the connection is then closed.</summary>
    /// <param name="response">What was read of the response.</param>
    /// <param name="error">What was wrong.</param>
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
