using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The client side of HTTP on one connection, whatever the transport: <see cref="HttpClient"/> (TCP) and
/// <see cref="HttpsClient"/> (TLS) forward their public members here. Holds the request to fill and the protocol that
/// sends requests and reads their responses in order (its own lock guards what it shares with the receive thread).
/// </summary>
internal sealed class HttpRequester
{
    private readonly HttpClientProtocol _protocol;

    public HttpRequester(IHttpClientHost client) => _protocol = new HttpClientProtocol(client, new HttpResponse());

    /// <summary>The protocol for the connection's slot (installed by the client's constructor).</summary>
    public IStreamProtocol Protocol => _protocol;

    public HttpRequest Request { get; set; } = new();

    public HttpResponse Response
    {
        get => _protocol.Response;
        set => _protocol.Response = value;
    }

    public long SendRequest(HttpRequest request) => _protocol.SendRequest(request, blocking: true) ? request.Cache.Size : 0;

    public bool SendRequestAsync(HttpRequest request) => _protocol.SendRequest(request, blocking: false);

    /// <summary>A (re)connect starts afresh: requests of an earlier connection are forgotten.</summary>
    public void Connected() => _protocol.Restart();

    /// <summary>A response whose end is the end of the stream is complete when the server closes.</summary>
    public void Disconnecting(DisconnectReason reason)
    {
        if (reason == DisconnectReason.PeerClosed)
            _protocol.StreamEnded();
    }

    /// <summary>The Host field for requests that have none: the endpoint the client connects to.</summary>
    public static string HostField(EndPoint? endpoint) => endpoint switch
    {
        IPEndPoint ip => (ip.AddressFamily == AddressFamily.InterNetworkV6 ? "[" + ip.Address + "]" : ip.Address.ToString()) + ":" + ip.Port,
        DnsEndPoint dns => dns.Host + ":" + dns.Port,
        _ => "localhost",
    };
}
