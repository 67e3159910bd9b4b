using System;
using System.Net;
using NetCoreServer.Http;

// twin: NetCoreServer.HttpClient NetCoreServer.HttpsClient
    private readonly HttpClientProtocol _http;

    /// <summary>A request to fill and send (reused).</summary>
    public HttpRequest Request { get; protected set; } = new();

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
    public long SendRequest() => SendRequest(Request);

    /// <summary>
    /// Sends a request (head and body as one unit) and waits until it is handed to the socket. On an event loop's thread
    /// it queues and returns: waiting there could wait for the loop.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Bytes of the request; 0 when not connected.</returns>
    public long SendRequest(HttpRequest request) => _http.SendRequest(request, blocking: true) ? request.Cache.Size : 0;

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
    public bool SendRequestAsync() => SendRequestAsync(Request);

    /// <summary>Queues a request (head and body as one unit, copied) and returns at once.</summary>
    /// <param name="request">The request.</param>
    /// <returns>True when queued.</returns>
    public bool SendRequestAsync(HttpRequest request) => _http.SendRequest(request, blocking: false);

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

    /// <summary>Called when a response head has arrived, before its body.</summary>
    /// <param name="response">The response so far (status, headers).</param>
    protected virtual void OnReceivedResponseHeader(HttpResponse response)
    {
    }

    /// <summary>Called for each complete response, in the order of the requests.</summary>
    /// <param name="response">The response (valid until the next response arrives).</param>
    protected virtual void OnReceivedResponse(HttpResponse response)
    {
    }

    /// <summary>Called for a response that cannot be read; the connection is then closed.</summary>
    /// <param name="response">What was read of the response.</param>
    /// <param name="error">What was wrong.</param>
    protected virtual void OnReceivedResponseError(HttpResponse response, string error)
    {
    }

    private protected override void NotifyConnected()
    {
        _http.Restart();
        base.NotifyConnected();
    }

    private protected override void NotifyDisconnecting()
    {
        if (DisconnectReason == NetCoreServer.DisconnectReason.PeerClosed)
            _http.StreamEnded();
        base.NotifyDisconnecting();
    }

    private HttpClientProtocol Install()
    {
        var http = new HttpClientProtocol(this, new HttpResponse());
        Protocol = http;
        return http;
    }

    void IHttpClientHost.RaiseResponseHeader(HttpResponse response) => OnReceivedResponseHeader(response);

    void IHttpClientHost.RaiseResponse(HttpResponse response) => OnReceivedResponse(response);

    void IHttpClientHost.RaiseResponseError(HttpResponse response, string error) => OnReceivedResponseError(response, error);

    bool IHttpClientHost.SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking) => SendMessage(head, body, blocking);

    void IHttpClientHost.Disconnect() => DisconnectAsync();

    string IHttpClientHost.HostField => Endpoint switch
    {
        System.Net.IPEndPoint ip => (ip.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6 ? "[" + ip.Address + "]" : ip.Address.ToString()) + ":" + ip.Port,
        System.Net.DnsEndPoint dns => dns.Host + ":" + dns.Port,
        _ => "localhost",
    };
